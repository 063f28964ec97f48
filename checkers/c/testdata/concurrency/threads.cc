// Background indexer threads.
#include <atomic>
#include <thread>
#include <vector>

static int files_indexed;
static std::atomic<int> files_seen;
static int progress_ticks;
static thread_local int ticks_here;

static void index_dir(int shard)
{
	files_indexed += shard; // want "c.sync.data-race"
	files_seen++; // safe "c.sync.data-race"
}

int report()
{
	return files_indexed;
}

// Flawed: the thread object is destroyed while joinable.
void start_indexer()
{
	std::thread t(index_dir, 1); // want "c.sync.thread-leak"
}

// Fixed twin: joined before it goes out of scope.
void run_indexer()
{
	std::thread t(index_dir, 2); // safe "c.sync.thread-leak"
	t.join();
}

// Fixed twin: moved into a container that joins later.
void start_pool(std::vector<std::thread> &pool)
{
	std::thread t(index_dir, 3); // safe "c.sync.thread-leak"
	pool.push_back(std::move(t));
}

// Flawed: the lambda thread bumps a global with no lock.
void run_ticker()
{
	std::thread ticker([] {
		progress_ticks++; // want "c.sync.data-race"
		ticks_here++; // safe "c.sync.data-race"
	});
	ticker.join();
}

class Indexer {
public:
	void Start();

private:
	void Loop();
	int rounds_ = 0;
};

// Fixed twin: a member function detached on purpose.
void Indexer::Start()
{
	std::thread worker(&Indexer::Loop, this); // safe "c.sync.thread-leak"
	worker.detach();
}

void Indexer::Loop()
{
	rounds_++;
}
