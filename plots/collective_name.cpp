// Short names of collectives (see collective_name.hpp).
#include "plots/collective_name.hpp"

#include <utility>

namespace ridge::plots {

bool is_collective_name(const std::string& name) {
  return name.find(' ') != std::string::npos && !name.empty() && name.back() == ')' && name.find(" (") != std::string::npos;
}

std::string short_collective_name(const std::string& name, bool acronyms) {
  // Longest first: "forward+backward" before "forward".
  static const std::pair<const char*, const char*> kWords[] = {
      {"all_reduce", "all-reduce"}, {"reduce_scatter", "reduce-scatter"}, {"all_gather", "all-gather"},
      {"all_to_all", "all-to-all"}, {"send_recv", "send/recv"},           {"forward+backward", "fwd+bwd"},
      {"forward", "fwd"},           {"backward", "bwd"},                  {"gradient reduction", "grad. reduction"},
      {"scale_up", "scale-up"},     {"scale_out", "scale-out"}};
  static const std::pair<const char*, const char*> kAcronyms[] = {
      {"all-reduce", "AR"}, {"reduce-scatter", "RS"}, {"all-gather", "AG"}, {"all-to-all", "A2A"}, {"send/recv", "P2P"}};
  std::string s = name;
  auto replace_all = [&](const char* from, const char* to) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + std::string(to).size()))
      s.replace(at, std::string(from).size(), to);
  };
  for (const auto& [from, to] : kWords) replace_all(from, to);
  if (acronyms)
    for (const auto& [from, to] : kAcronyms) replace_all(from, to);
  return s;
}

std::string collective_without_link(const std::string& name, bool acronyms) {
  const std::string s = short_collective_name(name, acronyms);
  const size_t open = s.rfind(" (");
  return open == std::string::npos ? s : s.substr(0, open);
}

}  // namespace ridge::plots
