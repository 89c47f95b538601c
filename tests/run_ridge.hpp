// Running the built `ridge` binary (RIDGE_BINARY) from a test, as a user's shell would.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ridge_test {

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct RidgeRun {
  int status = -1;  // exit status; -1 when killed (a minute of CPU is the limit)
  std::string out;
  std::string err;
};

// Where and how to run it: in a folder other than the source root, and with PATH set
// (a test that hides gnuplot).
struct RunIn {
  std::string folder;
  std::string path;
};

// Runs `ridge ARGS` (ARGS as a shell would split them) with stdout and stderr captured
// byte for byte. The one way the tests launch the binary.
inline RidgeRun run_ridge(const std::string& args, const RunIn& in = {}) {
  namespace fs = std::filesystem;
  std::string pattern = (fs::temp_directory_path() / "ridge-run-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) return {};
  fs::path dir = pattern, out = dir / "stdout", err = dir / "stderr";
  // `ulimit -t` bounds a runaway ridge (killed by SIGXCPU: status -1) without a
  // `timeout` process per run; `exec` spares one more.
  std::string cmd = (in.folder.empty() ? "" : "cd '" + in.folder + "' && ") + "ulimit -t 60; " +
                    (in.path.empty() ? "" : "PATH='" + in.path + "' ") + "exec '" RIDGE_BINARY "' " + args + " >'" + out.string() +
                    "' 2>'" + err.string() + "'";
  int raw = std::system(cmd.c_str());
  RidgeRun r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  fs::remove_all(dir);
  return r;
}

}  // namespace ridge_test
