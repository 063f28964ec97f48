// Container indexing with values from callers and from input.
#include <array>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

int Lookup(const std::vector<int> &table, int i) {
  return table[i];  // want "cpp.container.unchecked-index"
}

int LookupChecked(const std::vector<int> &table, std::size_t i) {
  if (i >= table.size()) return -1;
  return table[i];  // safe "cpp.container.unchecked-index"
}

int LookupAt(const std::vector<int> &table, std::size_t i) {
  return table.at(i);  // safe "cpp.container.unchecked-index"
}

char CharAt(const std::string &s, std::size_t pos) {
  return pos < s.size() ? s[pos] : '\0';  // safe "cpp.container.unchecked-index"
}

char LastChar(const std::string &s) {
  return s[s.size() - 1];  // safe "cpp.container.unchecked-index"
}

int Sum(const std::vector<int> &v) {
  int total = 0;
  for (std::size_t k = 0; k < v.size(); ++k) total += v[k];  // safe "cpp.container.unchecked-index"
  return total;
}

int Line(std::istream &in) {
  std::string line;
  std::getline(in, line);
  return std::atoi(line.c_str());  // want "c.input.atoi"
}

int main(int argc, char **argv) {
  std::array<int, 8> slots{};
  if (argc < 2) return 1;
  int k = std::atoi(argv[1]);  // want "c.input.atoi"
  return slots[k];  // want "cpp.container.unchecked-index"
}

// A parameter of a method in a class body is checked; a member is not.
class Paths {
 public:
  int At(const std::vector<int>& path, int i) const {
    return path[i];  // want "cpp.container.unchecked-index"
  }
  int Item(int i) const { return items_[i]; }

 private:
  std::vector<int> items_;  // safe "cpp.container.unchecked-index"
};

// A number is no index from outside; the same vector indexed by a
// parameter is.
int FirstAndNth(const std::vector<int>& v, int n) {
  if (v.empty()) return 0;
  int first = v[0];  // safe "cpp.container.unchecked-index"
  return first + v[n];  // want "cpp.container.unchecked-index"
}
int First(const std::vector<int>& v) {
  return v.empty() ? 0 : v[0];  // safe "cpp.container.unchecked-index"
}

// A counter that only ever holds numbers is no index from outside; one
// set from a parameter, read by scanf or stepped by one is.
int Counted(const std::vector<int>& v) {
  int total = 0;
  for (size_t i = 0; i < v.size(); ++i) total += v[i];  // safe "cpp.container.unchecked-index"
  return total;
}
int SetFromParam(const std::vector<int>& v, int n) {
  int i = 0;
  i = n;
  return v[i];  // want "cpp.container.unchecked-index"
}
int ReadByScanf(const std::vector<int>& v) {
  int i = 0;
  if (scanf("%d", &i) != 1) return 0;
  return v[i];  // want "cpp.container.unchecked-index"
}
int SteppedByParam(const std::vector<int>& v, int n) {
  int i = 0;
  i += n;
  return v[i];  // want "cpp.container.unchecked-index"
}
