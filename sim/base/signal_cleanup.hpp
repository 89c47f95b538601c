// Cleanup when ridge is stopped by a signal: temporary files and folders that a write
// or a plot has made are removed, and a child process (gnuplot) is stopped, before the
// process dies of SIGINT, SIGTERM or SIGHUP with the usual status. Registrations are
// scoped objects; the handlers are installed while any exists and the previous ones
// restored after. The handler does only async-signal-safe work (kill, waitpid, unlink,
// rmdir).
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <string>

namespace ridge {

class SignalCleanup {
 public:
  enum class Kind { file, folder, child };
  // A file to unlink, an (emptied) folder to rmdir, or a child process to SIGKILL and
  // wait for (before the files and folders go).
  // Folders are removed after files, so register the files a folder holds too.
  SignalCleanup(const std::string& path, Kind kind);
  explicit SignalCleanup(pid_t child);
  ~SignalCleanup();
  SignalCleanup(const SignalCleanup&) = delete;
  SignalCleanup& operator=(const SignalCleanup&) = delete;

 private:
  int slot_ = -1;  // -1: the table was full (cleanup then falls back to the scope's destructor)
};

// While one exists, SIGINT, SIGTERM and SIGHUP wait (blocked in this thread) and are
// delivered when it ends: a temporary created and then registered, or a set of outputs
// renamed into place, is then all or nothing.
class SignalsHeld {
 public:
  SignalsHeld();
  ~SignalsHeld();
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

 private:
  sigset_t previous_;
};

}  // namespace ridge
