// checktest:allow-parse-errors (the export macro is what the parser trips on)
#include <ostream>
#include <string>

#define JSON_API __attribute__((visibility("default")))

namespace Json {
class Value;

/* class EXPORT Name { … } is read as a function whose body is the class:
   its member declarations are no calls. */
class JSON_API StyledStreamWriter {
public:
	StyledStreamWriter(std::string indentation = "\t");
	~StyledStreamWriter() {}

public:
	void write(std::ostream &out, const Value &root); // safe "c.errors.unchecked-io"

private:
	std::string indentString_;
};
}
