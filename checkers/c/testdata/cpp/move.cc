// Moves in a message queue.
#include <memory>
#include <string>
#include <utility>
#include <vector>

struct Message {
  std::string body;
  int priority = 0;
};

class Queue {
 public:
  void Push(Message m);
  void PushAll(std::vector<Message> batch);
  std::size_t size() const { return items_.size(); }

 private:
  std::vector<Message> items_;
};

void Queue::Push(Message m) {
  items_.push_back(std::move(m));
  if (m.priority > 5) {  // want "cpp.move.use-after-move"
    items_.back().priority = 5;
  }
}

void Queue::PushAll(std::vector<Message> batch) {
  for (auto &m : batch) items_.push_back(m);
  std::vector<Message> old = std::move(batch);
  batch.clear();
  batch.push_back(Message{});  // safe "cpp.move.use-after-move"
}

std::unique_ptr<Message> Build(std::string text) {
  auto msg = std::make_unique<Message>();
  msg->body = std::move(text);
  if (text.empty()) {  // want "cpp.move.use-after-move"
    return nullptr;
  }
  auto copy = std::move(msg);
  return copy;
}

int Consume(std::unique_ptr<Message> msg, Queue *q) {
  q->Push(std::move(*msg));
  auto owned = std::move(msg);
  return msg->priority;  // want "cpp.move.use-after-move"
}

int Check(std::unique_ptr<Message> msg) {
  auto owned = std::move(msg);
  if (msg) {  // safe "cpp.move.use-after-move"
    return 1;
  }
  return owned->priority;
}

std::string Pick(bool first, std::string a) {
  if (first) {
    return std::move(a);
  }
  return a + "!";  // safe "cpp.move.use-after-move"
}

std::string Branch(bool keep, std::string s, std::vector<std::string> *out) {
  if (keep) {
    out->push_back(std::move(s));
  } else {
    out->push_back(s);  // safe "cpp.move.use-after-move"
  }
  return {};
}

int Count(int n, std::vector<int> *out) {
  out->push_back(std::move(n));
  return n + 1;  // safe "cpp.move.use-after-move"
}

void Refill(std::string line, std::vector<std::string> *lines) {
  lines->push_back(std::move(line));
  line = "next";
  lines->push_back(line);  // safe "cpp.move.use-after-move"
}

void Collect(const std::vector<std::string> &names, std::vector<std::string> *out) {
  for (std::string name : names) {
    out->push_back(std::move(name));
  }
  for (const std::string &name : *out) {
    if (name.empty()) return;  // safe "cpp.move.use-after-move"
  }
}

// A use after the block that moved it, and one inside a lambda body.
void Forward(Queue *q, Message m, bool urgent) {
  std::vector<Message> out;
  if (urgent) {
    out.push_back(std::move(m));
  }
  q->Push(m);  // want "cpp.move.use-after-move"
}

void Hand(Queue *q, Message m) {
  auto send = [q](Message x) {
    q->Push(std::move(x));
    return x.priority;  // want "cpp.move.use-after-move"
  };
  send(m);  // safe "c.errors.unchecked-network"
}

void Last(Queue *q, Message m) {
  q->Push(std::move(m));  // safe "cpp.move.use-after-move"
}
