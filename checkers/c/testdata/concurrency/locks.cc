// A session cache guarded by std::mutex.
#include <map>
#include <mutex>
#include <string>

class SessionCache {
public:
	bool Insert(const std::string &id, int uid);
	bool Erase(const std::string &id);
	int Lookup(const std::string &id);
	void Touch(const std::string &id);
	void Evict();
	void Merge(SessionCache &other);
	void Audit();
	void Rotate();

private:
	std::mutex mu_;
	std::mutex audit_mu_;
	std::map<std::string, int> sessions_;
	int evictions_ = 0;
};

// Flawed: the guard already holds mu_ when lock() is called.
bool SessionCache::Insert(const std::string &id, int uid)
{
	std::lock_guard<std::mutex> guard(mu_);
	if (sessions_.count(id))
		return false;
	mu_.lock(); // want "c.sync.double-lock"
	sessions_[id] = uid;
	mu_.unlock();
	return true;
}

// Fixed twin: the guard alone protects the map.
bool SessionCache::Erase(const std::string &id)
{
	std::lock_guard<std::mutex> guard(mu_);
	return sessions_.erase(id) > 0; // safe "c.sync.missing-unlock"
}

// Flawed: the not-found path returns with mu_ locked.
int SessionCache::Lookup(const std::string &id)
{
	mu_.lock();
	auto it = sessions_.find(id);
	if (it == sessions_.end())
		return -1; // want "c.sync.missing-unlock"
	int uid = it->second;
	mu_.unlock();
	return uid;
}

// Fixed twin: a unique_lock releases on every path.
void SessionCache::Touch(const std::string &id)
{
	std::unique_lock<std::mutex> lock(mu_);
	if (sessions_.find(id) == sessions_.end())
		return; // safe "c.sync.missing-unlock"
	lock.unlock();
	lock.lock(); // safe "c.sync.double-lock"
}

// Fixed twin: the guard's scope ends before the manual lock.
void SessionCache::Evict()
{
	{
		std::lock_guard<std::mutex> guard(mu_);
		sessions_.clear();
	}
	mu_.lock(); // safe "c.sync.double-lock"
	evictions_++;
	mu_.unlock();
}

// mu_ before audit_mu_ here ...
void SessionCache::Audit()
{
	std::lock_guard<std::mutex> g1(mu_);
	std::lock_guard<std::mutex> g2(audit_mu_);
	evictions_ = 0;
}

// Flawed: ... and audit_mu_ before mu_ here.
void SessionCache::Rotate()
{
	std::lock_guard<std::mutex> g1(audit_mu_);
	std::lock_guard<std::mutex> g2(mu_); // want "c.sync.lock-order"
	sessions_.clear();
}

// Fixed twin: scoped_lock takes both without an order.
void SessionCache::Merge(SessionCache &other)
{
	std::scoped_lock both(audit_mu_, mu_); // safe "c.sync.lock-order"
	sessions_.insert(other.sessions_.begin(), other.sessions_.end());
}
