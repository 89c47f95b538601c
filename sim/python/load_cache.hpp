// The Python module's memory of the models and descriptors it has read, so that a
// notebook calling ridge.analyze thousands of times reads each file once. An entry is
// keyed by what the call asked for (the MODEL / HW argument, its overrides, the tokens
// per step) and by the file it resolves to with that file's size and modification time:
// an edited file, another working directory or another RIDGE_DATA_DIR is read afresh.
// Each cache keeps its most recently used entries (kCacheEntries); a file that cannot be
// read is never cached, so its error is raised on every call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/cli/model_loaders.hpp"

namespace ridge::python {

inline constexpr size_t kCacheEntries = 256;

// The most recently used values by key, at most kCacheEntries of them.
template <class Value>
class RecentValues {
 public:
  const Value* find(const std::string& key) {
    auto it = entries_.find(key);
    if (it == entries_.end()) return nullptr;
    it->second.used = ++clock_;
    return &it->second.value;
  }
  const Value& put(const std::string& key, Value value) {
    if (entries_.size() >= kCacheEntries) {
      auto oldest = entries_.begin();
      for (auto it = entries_.begin(); it != entries_.end(); ++it)
        if (it->second.used < oldest->second.used) oldest = it;
      entries_.erase(oldest);
    }
    Entry& e = entries_[key];
    e = {std::move(value), ++clock_};
    return e.value;
  }
  size_t size() const { return entries_.size(); }
  void clear() { entries_.clear(); }

 private:
  struct Entry {
    Value value;
    uint64_t used = 0;
  };
  std::map<std::string, Entry> entries_;
  uint64_t clock_ = 0;
};

// Loaders (sim/cli/model_loaders.hpp) that answer from the caches while the files are unchanged.
class LoadCache {
 public:
  LoadCache();
  const cli::Loaders& loaders() const { return loaders_; }
  // Entries held: models, descriptors (each with its overrides applied).
  size_t models() const { return models_.size(); }
  size_t hardware() const { return hardware_.size(); }
  void clear();

 private:
  RecentValues<std::shared_ptr<const Model>> models_;
  RecentValues<HardwareSpec> hardware_;
  cli::Loaders loaders_;
};

// "absolute path|size|mtime" of `file`, or nothing when it cannot be read (then it is not cached).
std::optional<std::string> file_stamp(const std::string& file);

}  // namespace ridge::python
