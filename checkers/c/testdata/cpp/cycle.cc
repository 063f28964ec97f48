// Object graphs held by shared_ptr.
#include <memory>
#include <string>
#include <vector>

class Employee;

class Department {
 public:
  std::string name;
  std::vector<std::shared_ptr<Employee>> staff;  // safe "cpp.smartptr.cycle"
};

class Employee {
 public:
  std::string name;
  std::shared_ptr<Department> dept;  // want "cpp.smartptr.cycle"
};

struct TreeNode {
  std::vector<std::shared_ptr<TreeNode>> children;  // safe "cpp.smartptr.cycle"
  std::shared_ptr<TreeNode> parent;  // want "cpp.smartptr.cycle"
};

struct SafeNode {
  std::vector<std::shared_ptr<SafeNode>> children;
  std::weak_ptr<SafeNode> parent;  // safe "cpp.smartptr.cycle"
};

struct ListNode {
  std::shared_ptr<ListNode> next;  // safe "cpp.smartptr.cycle"
  std::shared_ptr<ListNode> prev;  // want "cpp.smartptr.cycle"
};

struct BinaryNode {
  std::shared_ptr<BinaryNode> left;  // safe "cpp.smartptr.cycle"
  std::shared_ptr<BinaryNode> right;  // safe "cpp.smartptr.cycle"
};
