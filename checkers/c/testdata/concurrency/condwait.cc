// A latch built on std::condition_variable.
#include <chrono>
#include <condition_variable>
#include <mutex>

class Latch {
public:
	void Wait();
	void WaitFixed();
	bool WaitFor(std::chrono::milliseconds d);
	bool WaitForFixed(std::chrono::milliseconds d);
	void CountDown();

private:
	std::mutex mu_;
	std::condition_variable cv_;
	int count_ = 1;
};

// Flawed: wait without a predicate and without a loop.
void Latch::Wait()
{
	std::unique_lock<std::mutex> lock(mu_);
	if (count_ > 0)
		cv_.wait(lock); // want "c.sync.cond-wait"
}

// Fixed twin: the predicate form loops internally.
void Latch::WaitFixed()
{
	std::unique_lock<std::mutex> lock(mu_);
	cv_.wait(lock, [this] { return count_ == 0; }); // safe "c.sync.cond-wait"
}

// Flawed: a timed wait without a predicate.
bool Latch::WaitFor(std::chrono::milliseconds d)
{
	std::unique_lock<std::mutex> lock(mu_);
	cv_.wait_for(lock, d); // want "c.sync.cond-wait"
	return count_ == 0;
}

// Fixed twin: the predicate overload.
bool Latch::WaitForFixed(std::chrono::milliseconds d)
{
	std::unique_lock<std::mutex> lock(mu_);
	return cv_.wait_for(lock, d, [this] { return count_ == 0; }); // safe "c.sync.cond-wait"
}

void Latch::CountDown()
{
	std::lock_guard<std::mutex> guard(mu_);
	if (--count_ == 0)
		cv_.notify_all();
}

// Fixed twin: a wait primitive of a portability layer; its callers loop.
class CondVar {
public:
	void Wait()
	{
		std::unique_lock<std::mutex> lock(*mu_, std::adopt_lock);
		cv_.wait(lock); // safe "c.sync.cond-wait"
		lock.release();
	}

private:
	std::mutex *mu_;
	std::condition_variable cv_;
};

// Not a condition variable: a process handle's wait(status).
struct Child {
	int wait(int &status);
};

int reap(Child &c)
{
	int status = 0;
	int rc = 0;
	if (rc == 0)
		c.wait(status); // safe "c.sync.cond-wait"
	return status;
}
