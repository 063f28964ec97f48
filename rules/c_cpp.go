package rules

import "github.com/jsec/jsec/issue"

// cCPP is the cpp family (checkers/c/cpp.go).
var cCPP = []Rule{
	{
		ID: "cpp.cast.reinterpret", Title: "reinterpret_cast between unrelated object types", CWE: 704, Category: CatTypes,
		Severity: issue.SeverityLow, Confidence: 0.5, Languages: LangCPP,
		Description: "reinterpret_cast reinterprets a pointer to one object type as a pointer to an unrelated object type; accessing the object through it breaks strict aliasing and alignment rules.",
		Suggestion:  "Copy the bytes with std::memcpy (or std::bit_cast), view them through unsigned char / std::byte, or use a static_cast along a real class hierarchy.",
	},
	{
		ID: "cpp.cast.const", Title: "Writing through a const_cast", CWE: 704, Category: CatTypes,
		Severity: issue.SeverityMedium, Confidence: 0.6, Languages: LangCPP,
		Description: "const_cast removes const from a pointer or reference and the result is then written to; if the object was defined const (a string literal, a const global) the write is undefined behaviour.",
		Suggestion:  "Make a writable copy of the data (std::string, std::vector<char>) and modify the copy, or fix the declaration that made it const.",
	},
	{
		ID: "cpp.class.virtual-dtor", Title: "Polymorphic base class without a virtual destructor", CWE: 1079, Category: CatMemory,
		Severity: issue.SeverityMedium, Confidence: 0.75, Languages: LangCPP,
		Description: "A class with virtual member functions is used as a base class but its destructor is public and not virtual: deleting a derived object through a pointer to the base runs only the base destructor (undefined behaviour, leaked resources).",
		Suggestion:  "Declare the destructor `virtual ~Base() = default;`, or make it protected and non-virtual if objects are never deleted through the base, or mark the class final.",
	},
	{
		ID: "cpp.move.use-after-move", Title: "Use of a moved-from object", CWE: 672, Category: CatMemory,
		Severity: issue.SeverityHigh, Confidence: 0.75, Languages: LangCPP,
		Description: "An object is used after std::move handed its contents away, with no reassignment in between: a moved-from smart pointer is null, a moved-from container or string is in an unspecified state.",
		Suggestion:  "Do not use the object after moving from it; copy instead of moving if both are needed, or reassign (x = T{}, x.clear(), x.reset()) before reuse.",
	},
	{
		ID: "cpp.exception.throw-noexcept", Title: "Throw that terminates the program", CWE: 248, Category: CatErrors,
		Severity: issue.SeverityMedium, Confidence: 0.7, Languages: LangCPP,
		Description: "An exception is thrown out of a destructor or a noexcept function with no enclosing try block to catch it: std::terminate ends the program.",
		Suggestion:  "Catch the exception inside the function and report the error another way, or remove noexcept (destructors need noexcept(false), which is rarely a good idea).",
	},
	{
		ID: "cpp.smartptr.get-escape", Title: "Smart pointer's raw pointer freed twice or escaping", CWE: 415, Category: CatMemory,
		Severity: issue.SeverityHigh, Confidence: 0.85, Languages: LangCPP,
		Description: "The raw pointer from a smart pointer's get() is deleted or freed, handed to a second owning smart pointer, or stored where it outlives its owner: the object is freed twice or used after it is freed.",
		Suggestion:  "Let the smart pointer own the object: use release() to transfer ownership, share a std::shared_ptr instead of wrapping get() again, and keep the owner alive as long as any stored raw pointer.",
	},
	{
		ID: "cpp.smartptr.cycle", Title: "shared_ptr reference cycle", CWE: 401, Category: CatMemory,
		Severity: issue.SeverityLow, Confidence: 0.5, Languages: LangCPP,
		Description: "Objects hold std::shared_ptr to each other (two classes pointing at each other, or a back link such as parent/prev/owner to the class's own type): the reference counts never reach zero and the objects leak.",
		Suggestion:  "Make the back link a std::weak_ptr (or a raw observer pointer) so that ownership flows one way.",
	},
	{
		ID: "cpp.container.unchecked-index", Title: "Container index from outside without bounds check", CWE: 129, Category: CatBuffer,
		Severity: issue.SeverityMedium, Confidence: 0.55, Languages: LangCPP,
		Description: "A std::vector, std::string, std::array or std::deque is indexed with operator[] by a value that comes from a parameter or program input, with no comparison against size() first; operator[] does not check bounds.",
		Suggestion:  "Compare the index with size() before indexing (and reject it), or use at(), which throws std::out_of_range.",
	},
}
