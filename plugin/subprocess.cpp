#include "plugin/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>

extern char** environ;

namespace hintkit::plugin {
namespace {

// Programs running at once, at most: `resolve` runs one `op` per item on a small pool of
// threads. A program started while every slot is taken waits for one to free.
constexpr int kMaxChildren = 64;
// How long a signal handler waits for a program that is being started to be recorded (so it
// can be killed too): starting one takes well under a millisecond.
constexpr long kSpawnWaitNanos = 200'000'000;

// The process groups of the running programs (0: free slot), and how many are being started
// (their group not recorded yet). Read by the signal handler, so lock-free.
std::atomic<pid_t> g_children[kMaxChildren];
std::atomic<int> g_starting{0};
std::atomic<bool> g_dying{false};  // a handler is killing the programs: start no more
std::mutex g_slots_mu;             // taken by threads only, never by the handler

// SIGINT, SIGTERM: kill every running program's group, then die of the signal as if no
// handler were installed (SA_RESETHAND restored the default action; the signal is blocked
// while this runs, so raise() delivers it on return).
void kill_children_and_die(int sig) {
  const int saved = errno;
  g_dying.store(true);
  for (long waited = 0; g_starting.load() > 0 && waited < kSpawnWaitNanos; waited += 1'000'000) {
    timespec ms{0, 1'000'000};
    ::nanosleep(&ms, nullptr);
  }
  for (auto& child : g_children) {
    if (const pid_t pgid = child.load(); pgid > 0) ::kill(-pgid, SIGKILL);
  }
  ::raise(sig);
  errno = saved;
}

void install_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : {SIGINT, SIGTERM}) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;  // kept
      struct sigaction sa {};
      sa.sa_handler = kill_children_and_die;
      sigemptyset(&sa.sa_mask);
      sa.sa_flags = SA_RESETHAND;
      ::sigaction(sig, &sa, nullptr);
    }
  });
}

// SIGINT and SIGTERM blocked in this thread while a program is started and recorded: a
// handler running in this thread in between would wait for this thread forever.
class StartGuard {
 public:
  StartGuard() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    ::pthread_sigmask(SIG_BLOCK, &set, &old_);
    g_starting.fetch_add(1);
  }
  ~StartGuard() {
    g_starting.fetch_sub(1);
    ::pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }

 private:
  sigset_t old_;
};

// A free slot of g_children, or -1.
int take_slot() {
  std::lock_guard lock(g_slots_mu);
  for (int i = 0; i < kMaxChildren; ++i) {
    pid_t expected = 0;
    if (g_children[i].compare_exchange_strong(expected, -1)) return i;  // -1: taken, no group
  }
  return -1;
}

// Go's findExecutable: a file (not a folder) that this process may execute.
bool executable(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || S_ISDIR(st.st_mode)) return false;
  return ::faccessat(AT_FDCWD, path.c_str(), X_OK, AT_EACCESS) == 0;
}

struct Pipe {
  int fd[2] = {-1, -1};
  ~Pipe() {
    for (int f : fd) {
      if (f >= 0) ::close(f);
    }
  }
  void close_end(int i) {
    if (fd[i] >= 0) ::close(fd[i]);
    fd[i] = -1;
  }
};

}  // namespace

diag::Result<std::string> look_path(const std::string& file, const char* path) {
  if (file.find('/') != std::string::npos) {
    if (file[0] == '/' && executable(file)) return file;
    if (file[0] != '/') {
      return diag::Error{"`" + file + "` is a relative path; only absolute ones are run", {}};
    }
    return diag::Error{"`" + file + "` is not an executable file", {}};
  }
  // filepath.SplitList: an unset or empty PATH has no entries.
  const std::string list = path ? path : "";
  size_t start = 0;
  while (!list.empty() && start <= list.size()) {
    size_t end = list.find(':', start);
    if (end == std::string::npos) end = list.size();
    const std::string entry = list.substr(start, end - start);
    start = end + 1;
    const std::string dir = entry.empty() ? "." : entry;  // Unix shells read "" as "."
    std::string candidate = dir;
    while (candidate.size() > 1 && candidate.back() == '/') candidate.pop_back();
    candidate += candidate == "/" ? file : "/" + file;
    if (!executable(candidate)) continue;
    if (dir[0] != '/') {  // Go's ErrDot: never run what the current folder provides
      return diag::Error{"`" + file + "` was found through the PATH entry \"" + entry +
                             "\", which is relative to the current folder; hintkit runs only "
                             "programs found in absolute PATH entries (as Go's exec.LookPath "
                             "does for tazuna and helmfile)",
                         {}};
    }
    return candidate;
  }
  return diag::Error{"`" + file + "` was not found on PATH", {}};
}

diag::Result<ProcessResult> run_process(const std::vector<std::string>& argv,
                                        std::chrono::milliseconds timeout) {
  Pipe out, err;
  if (::pipe2(out.fd, O_CLOEXEC) != 0 || ::pipe2(err.fd, O_CLOEXEC) != 0) {
    return diag::Error{std::string("cannot create a pipe: ") + std::strerror(errno), {}};
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out.fd[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err.fd[1], 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  auto program = look_path(argv[0], std::getenv("PATH"));
  if (!program.ok()) {
    posix_spawn_file_actions_destroy(&actions);
    return program.error();
  }
  install_handlers();
  // Its own process group, so a timeout or a signal stops whatever the program started too;
  // the signals this thread blocks are unblocked and handled ones reset in the program.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  int slot = take_slot();
  while (slot < 0) {  // every slot taken: wait for a program to end
    timespec ms{0, 10'000'000};
    ::nanosleep(&ms, nullptr);
    slot = take_slot();
  }
  pid_t pid = -1;
  int rc;
  {
    StartGuard guard;
    // After g_starting rose: either the handler waits for this start, or this sees g_dying.
    rc = g_dying.load()
             ? EINTR
             : ::posix_spawn(&pid, program->c_str(), &actions, &attr, args.data(), environ);
    g_children[slot].store(rc == 0 ? pid : 0);
  }
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    if (rc == ENOENT) return diag::Error{"`" + argv[0] + "` was not found on PATH", {}};
    return diag::Error{"cannot start `" + argv[0] + "`: " + std::strerror(rc), {}};
  }
  out.close_end(1);
  err.close_end(1);

  ProcessResult result;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  pollfd fds[2] = {{out.fd[0], POLLIN, 0}, {err.fd[0], POLLIN, 0}};
  bool timed_out = false;
  bool overflowed = false;
  while (!overflowed && (fds[0].fd >= 0 || fds[1].fd >= 0)) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    int n = ::poll(fds, 2, static_cast<int>(left.count()));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[8192];
      ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
      if (got > 0) {
        std::string& sink = i == 0 ? result.out : result.err;
        if (sink.size() + static_cast<size_t>(got) > kMaxProcessOutputBytes) {
          overflowed = true;
          break;
        }
        sink.append(buf, static_cast<size_t>(got));
      } else if (got == 0 || errno != EINTR) {
        fds[i].fd = -1;
      }
    }
  }
  if (timed_out || overflowed) ::kill(-pid, SIGKILL);
  int status = 0;
  // Waited for without reaping first: until it is reaped its process id cannot be reused, so
  // a signal handler killing the recorded groups cannot hit another program's.
  siginfo_t ended;
  while (::waitid(P_PID, static_cast<id_t>(pid), &ended, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
  }
  g_children[slot].store(0);
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (overflowed) {
    return diag::Error{"`" + argv[0] + "` wrote more than " +
                           std::to_string(kMaxProcessOutputBytes) + " bytes and was stopped",
                       {}};
  }
  if (timed_out) {
    return diag::Error{"`" + argv[0] + "` did not finish within " +
                           std::to_string(timeout.count() / 1000) + " s and was stopped",
                       {}};
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

}  // namespace hintkit::plugin
