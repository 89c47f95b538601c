// Running gnuplot without a shell (see gnuplot_runner.hpp).
#include "plots/gnuplot_runner.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <memory>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/base/error.hpp"
#include "sim/base/output_file.hpp"
#include "sim/base/signal_cleanup.hpp"

namespace ridge::plots {

namespace fs = std::filesystem;

ProcessResult run_process(const std::vector<std::string>& argv, const std::string& cwd) {
  ProcessResult r;
  int err_pipe[2];    // the child's stderr
  int exec_pipe[2];   // close-on-exec: carries errno when chdir/execvp fails
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) throw RunError("cannot start gnuplot: pipe failed");
  if (::pipe2(exec_pipe, O_CLOEXEC) != 0) {
    ::close(err_pipe[0]);
    ::close(err_pipe[1]);
    throw RunError("cannot start gnuplot: pipe failed");
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) {
    for (int fd : {err_pipe[0], err_pipe[1], exec_pipe[0], exec_pipe[1]}) ::close(fd);
    throw RunError("cannot start gnuplot: fork failed");
  }
  if (pid == 0) {  // child: only async-signal-safe calls from here on
    int devnull = ::open("/dev/null", O_RDWR);
    if (devnull >= 0) {
      ::dup2(devnull, 0);
      ::dup2(devnull, 1);
    }
    ::dup2(err_pipe[1], 2);
    int e = 0;
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) e = errno;
    if (e == 0) {
      ::execvp(args[0], args.data());
      e = errno;
    }
    ssize_t ignored = ::write(exec_pipe[1], &e, sizeof e);
    (void)ignored;
    ::_exit(127);
  }
  ::close(err_pipe[1]);
  ::close(exec_pipe[1]);
  SignalCleanup stop_child(pid);  // SIGTERM to ridge stops gnuplot too
  // Read stderr until the child closes it (exits), then the exec report.
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(err_pipe[0], buf, sizeof buf);
    if (n > 0) {
      if (r.stderr_text.size() < 64 * 1024) r.stderr_text.append(buf, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    break;
  }
  ::close(err_pipe[0]);
  int e = 0;
  ssize_t n;
  do n = ::read(exec_pipe[0], &e, sizeof e);
  while (n < 0 && errno == EINTR);
  ::close(exec_pipe[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.started = n != static_cast<ssize_t>(sizeof e);
  r.exec_errno = r.started ? 0 : e;
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return r;
}

namespace {

// gnuplot's svg terminal gives the width and height unitless (user units, which it
// draws at 72 per inch), and tools take them as px at 96 per inch (a 6-in figure opens
// at 4.5 in): the <svg> element's width and height are rewritten in inches, the
// viewBox keeping the drawing's units.
void svg_size_in_inches(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::string svg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  const size_t open = svg.find("<svg"), close = svg.find('>', open);
  if (open == std::string::npos || close == std::string::npos) return;
  for (const char* attr : {" width=\"", " height=\""}) {
    const size_t at = svg.find(attr, open);
    if (at == std::string::npos || at > close) continue;
    const size_t v = at + std::strlen(attr), end = svg.find('"', v);
    char* stop = nullptr;
    const double units = std::strtod(svg.c_str() + v, &stop);
    if (stop != svg.c_str() + end || !(units > 0)) continue;  // already with a unit
    std::ostringstream inches;
    inches << units / 72 << "in";
    svg.replace(v, end - v, inches.str());
  }
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << svg;
  if (!out) throw RunError("cannot write '" + file.string() + "'");
}

// A temporary folder beside the output, removed (with what is in it) on scope exit.
class TempFolder {
 public:
  explicit TempFolder(const fs::path& beside) {
    std::string templ = (beside / ".ridge-plot-XXXXXX").string();
    SignalsHeld held;  // a signal between mkdtemp and the registration waits for it
    if (!::mkdtemp(templ.data()))
      throw RunError("cannot create a temporary folder in '" + (beside.empty() ? "." : beside.string()) + "'",
                     "check that the output folder exists and is writable");
    path_ = templ;
    registration_ = std::make_unique<SignalCleanup>(path_.string(), SignalCleanup::Kind::folder);
  }
  ~TempFolder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  const fs::path& path() const { return path_; }
  // A file that will be made inside: removed too if a signal stops ridge.
  void will_hold(const std::string& name) {
    inside_.push_back(std::make_unique<SignalCleanup>((path_ / name).string(), SignalCleanup::Kind::file));
  }

 private:
  fs::path path_;
  std::unique_ptr<SignalCleanup> registration_;
  std::vector<std::unique_ptr<SignalCleanup>> inside_;
};

std::string last_lines(const std::string& text, size_t max_lines) {
  size_t pos = text.size();
  while (pos > 0 && text[pos - 1] == '\n') --pos;
  size_t end = pos;
  for (size_t lines = 0; pos > 0; --pos)
    if (text[pos - 1] == '\n' && ++lines == max_lines) break;
  return text.substr(pos, end - pos);
}

}  // namespace

void render_bundle(const PlotBundle& bundle, const std::string& folder, const std::string& program) {
  fs::path dir = folder.empty() ? fs::path(".") : fs::path(folder);
  if (!fs::is_directory(dir))
    throw RunError("output folder '" + dir.string() + "' does not exist", "create it first");
  TempFolder tmp(dir);
  for (const PlotFile& f : bundle.files) tmp.will_hold(f.name);
  for (const ImageFile& image : bundle.images) tmp.will_hold(image.made);
  for (const PlotFile& f : bundle.files) write_file_atomically((tmp.path() / f.name).string(), f.content);

  ProcessResult r = run_process({program, bundle.files.front().name}, tmp.path().string());
  if (!r.started) {
    if (r.exec_errno == ENOENT)
      throw RunError("gnuplot was not found on PATH; ridge draws its plots with it",
                     "apt-get install gnuplot-nox (then run the command again)");
    throw RunError("cannot run gnuplot: " + std::string(std::strerror(r.exec_errno)),
                   "apt-get install gnuplot-nox, and check PATH");
  }
  if (r.status != 0) {
    std::string tail = last_lines(r.stderr_text, 12);
    throw RunError("gnuplot failed (exit status " + std::to_string(r.status) + ")" +
                       (tail.empty() ? std::string() : ":\n" + tail),
                   "the script and data are not kept; report this as a ridge bug");
  }
  for (const ImageFile& image : bundle.images) {
    std::error_code ec;
    const fs::path made = tmp.path() / image.made;
    if (!fs::is_regular_file(made, ec) || fs::file_size(made, ec) == 0)
      throw RunError("gnuplot wrote no image '" + image.made + "'" +
                     (r.stderr_text.empty() ? std::string() : ":\n" + last_lines(r.stderr_text, 12)));
  }
  for (const ImageFile& image : bundle.images)
    if (fs::path(image.made).extension() == ".svg") svg_size_in_inches(tmp.path() / image.made);
  // Everything rendered: move the data and script, then the images, into place, with
  // signals held so that a Ctrl-C leaves all of them or (before) none, never a .gp
  // without its image.
  SignalsHeld held;
  std::vector<ImageFile> moves;
  for (const PlotFile& f : bundle.files) moves.push_back({f.name, f.name});
  moves.insert(moves.end(), bundle.images.begin(), bundle.images.end());
  std::vector<fs::path> moved;
  for (const ImageFile& m : moves) {
    try {
      move_into_place((tmp.path() / m.made).string(), (dir / m.kept).string());
    } catch (...) {  // a RunError, or an InputError (the image would replace an input)
      std::error_code ec;
      for (const fs::path& p : moved) fs::remove(p, ec);
      throw;
    }
    moved.push_back(dir / m.kept);
  }
}

}  // namespace ridge::plots
