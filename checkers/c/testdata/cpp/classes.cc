// Class hierarchies and destructors.
#include <memory>
#include <string>

class Shape {  // want "cpp.class.virtual-dtor"
 public:
  virtual double Area() const = 0;
  virtual std::string Name() const { return "shape"; }
};

class Circle : public Shape {
 public:
  explicit Circle(double r) : r_(r) {}
  double Area() const override { return 3.14159 * r_ * r_; }

 private:
  double r_;
};

class Codec {  // want "cpp.class.virtual-dtor"
 public:
  ~Codec() {}
  virtual int Encode(const char *in, char *out) = 0;
};

class Gzip final : public Codec {
 public:
  int Encode(const char *in, char *out) override { return in == out; }
};

class Listener {  // safe "cpp.class.virtual-dtor"
 public:
  virtual ~Listener() = default;
  virtual void OnEvent(int id) = 0;
};

class Logger : public Listener {
 public:
  void OnEvent(int id) override { last_ = id; }

 private:
  int last_ = 0;
};

class Visitor {  // safe "cpp.class.virtual-dtor"
 public:
  virtual void Visit(int node) = 0;

 protected:
  ~Visitor() = default;
};

class Printer : public Visitor {
 public:
  void Visit(int node) override { count_ += node; }

 private:
  int count_ = 0;
};

class Plugin {  // want "cpp.class.virtual-dtor"
 public:
  virtual void Run() {}
};

void Unload(Plugin *plugin) {
  delete plugin;
}

class Standalone {  // safe "cpp.class.virtual-dtor"
 public:
  virtual int Id() const { return 1; }
};

struct Finalized final {  // safe "cpp.class.virtual-dtor"
  virtual int Kind() const { return 2; }
};
