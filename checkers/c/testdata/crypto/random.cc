#include <cstdlib>
#include <ctime>
#include <string>

namespace auth {

class SessionManager {
public:
	std::string NewSessionToken()
	{
		std::srand(static_cast<unsigned>(std::time(nullptr))); // want "c.random.seed"
		std::string sessionToken;
		for (int i = 0; i < 32; ++i)
			sessionToken += kAlphabet[std::rand() % 62]; // want "c.random.insecure"
		return sessionToken;
	}

	int PickShard(int shards) const
	{
		return std::rand() % shards; // safe "c.random.insecure"
	}

private:
	static constexpr const char *kAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
};

}  // namespace auth
