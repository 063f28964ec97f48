#include <string>

namespace app {

const std::string kApiKey = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"; // want "c.secrets.hardcoded"
const std::string kApiKeyHeader = "X-Api-Key"; // safe "c.secrets.hardcoded"
const char *api_key_name = "X-Api-Key"; // safe "c.secrets.hardcoded"
const char *api_key = "X-Api-Key"; // safe "c.secrets.hardcoded"

class Client {
public:
	Client() : user_("svc") { password_ = "Sup3rS3cret"; } // want "c.secrets.hardcoded"
	void reset() { password_ = ""; } // safe "c.secrets.hardcoded"

private:
	std::string user_;
	std::string password_;
	std::string secret_ = "q9Xv-72kd-PP01"; // want "c.secrets.hardcoded"
};

std::string default_token()
{
	std::string auth_token("eyJhbGciOiJIUzI1NiJ9.e30.Zm9v"); // want "c.secrets.hardcoded"
	return auth_token;
}

}  // namespace app
