// Removing temporaries when a signal stops ridge (see signal_cleanup.hpp).
#include "sim/base/signal_cleanup.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>

namespace ridge {

namespace {

constexpr int kSlots = 64;
constexpr size_t kPathMax = 4096;
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

// Fixed storage: the handler must not allocate. A slot is published by setting
// `kind` last (release) and read by the handler after loading it (acquire).
struct Slot {
  std::atomic<int> kind{0};  // 0 free, else 1 + Kind
  char path[kPathMax];
  pid_t child = 0;
};
Slot g_slots[kSlots];

std::mutex g_mutex;  // registration only, never taken in the handler
int g_active = 0;
struct sigaction g_previous[std::size(kSignals)];

extern "C" void on_fatal_signal(int sig) {
  // The child is killed and waited for before its folder is emptied: a gnuplot still
  // running after the unlinks below could create its image there, and the folder would
  // stay. SIGKILL, so that the wait is bounded whatever the child does with SIGTERM.
  for (Slot& s : g_slots)
    if (s.kind.load(std::memory_order_acquire) == 1 + static_cast<int>(SignalCleanup::Kind::child)) {
      ::kill(s.child, SIGKILL);
      while (::waitpid(s.child, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
  for (Slot& s : g_slots)
    if (s.kind.load(std::memory_order_acquire) == 1 + static_cast<int>(SignalCleanup::Kind::file)) ::unlink(s.path);
  for (Slot& s : g_slots)
    if (s.kind.load(std::memory_order_acquire) == 1 + static_cast<int>(SignalCleanup::Kind::folder)) ::rmdir(s.path);
  // Die of the signal itself, so the shell sees the usual status (130 for Ctrl-C).
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

int claim(SignalCleanup::Kind kind, const std::string& path, pid_t child) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (path.size() >= kPathMax) return -1;
  for (int i = 0; i < kSlots; ++i) {
    Slot& s = g_slots[i];
    if (s.kind.load(std::memory_order_relaxed) != 0) continue;
    std::memcpy(s.path, path.c_str(), path.size() + 1);
    s.child = child;
    if (g_active++ == 0) {
      struct sigaction sa {};
      sa.sa_handler = on_fatal_signal;
      sigemptyset(&sa.sa_mask);
      for (size_t k = 0; k < std::size(kSignals); ++k) {
        ::sigaction(kSignals[k], nullptr, &g_previous[k]);
        // A signal the user's shell ignores (nohup) stays ignored.
        if (g_previous[k].sa_handler != SIG_IGN) ::sigaction(kSignals[k], &sa, nullptr);
      }
    }
    s.kind.store(1 + static_cast<int>(kind), std::memory_order_release);
    return i;
  }
  return -1;
}

}  // namespace

SignalCleanup::SignalCleanup(const std::string& path, Kind kind) : slot_(claim(kind, path, 0)) {}

SignalCleanup::SignalCleanup(pid_t child) : slot_(claim(Kind::child, "", child)) {}

SignalsHeld::SignalsHeld() {
  sigset_t held;
  sigemptyset(&held);
  for (int sig : kSignals) sigaddset(&held, sig);
  ::pthread_sigmask(SIG_BLOCK, &held, &previous_);
}

SignalsHeld::~SignalsHeld() { ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }

SignalCleanup::~SignalCleanup() {
  if (slot_ < 0) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  g_slots[slot_].kind.store(0, std::memory_order_release);
  if (--g_active == 0)
    for (size_t k = 0; k < std::size(kSignals); ++k)
      if (g_previous[k].sa_handler != SIG_IGN) ::sigaction(kSignals[k], &g_previous[k], nullptr);
}

}  // namespace ridge
