#pragma once
#include <memory>
#include <string>
#include <vector>

class Entry {
public:
	virtual ~Entry() = default;
	virtual std::string key() const = 0;
};

class Cache {
public:
	void put(std::unique_ptr<Entry> e);
	Entry *get(size_t i);
private:
	std::vector<std::unique_ptr<Entry>> entries_;
};
