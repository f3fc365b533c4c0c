// Whole-file reads: the size limit, the reads' shared budget, pipes and devices.
#include "fileio/fileio.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <mutex>

namespace hintkit::fileio {
namespace {

// Pipes and devices are read this much at a time.
constexpr size_t kReadChunk = 1 << 16;

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// Bytes reserved by reads in progress, process-wide. A read reserves what it may hold (a
// regular file its size, anything else the whole limit) and waits while the budget is taken,
// so `lint -j N` over N endless inputs holds at most a few limits' worth, not N. A read that
// needs more than the whole budget goes ahead alone (no read waits for one that waits).
class ReadBudget {
 public:
  size_t acquire(size_t n) {
    std::unique_lock lock(mu_);
    freed_.wait(lock, [&] { return used_ == 0 || used_ + n <= kMaxBytesInFlight; });
    used_ += n;
    return n;
  }
  void release(size_t n) {
    {
      std::lock_guard lock(mu_);
      used_ -= n;
    }
    freed_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable freed_;
  size_t used_ = 0;
};

ReadBudget& read_budget() {
  static auto* b = new ReadBudget();  // never destroyed: reads may run at exit
  return *b;
}

struct Reservation {
  size_t n;
  explicit Reservation(size_t bytes) : n(read_budget().acquire(bytes)) {}
  ~Reservation() { read_budget().release(n); }
  Reservation(const Reservation&) = delete;
  Reservation& operator=(const Reservation&) = delete;
};

diag::Error cannot_read(const std::string& path, const std::string& why) {
  return diag::Error{"cannot read " + path + ": " + why, {}};
}

}  // namespace

diag::Result<std::string> read_file(const std::string& path, size_t max_bytes, FileKinds kinds) {
  const bool regular_only = kinds == FileKinds::kRegularOnly;
  // Looked at before opening too: opening a device can have effects of its own.
  if (struct stat before{}; regular_only && ::stat(path.c_str(), &before) == 0 &&
                            !S_ISREG(before.st_mode) && !S_ISDIR(before.st_mode)) {
    return cannot_read(path, "not a regular file");
  }
  // Non-blocking open: a FIFO nobody writes to must not hang us (it reads as empty);
  // process substitution (`--values <(cmd)`) still works, its writer is already there.
  Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (f.fd < 0) return cannot_read(path, std::strerror(errno));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) return cannot_read(path, std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return cannot_read(path, "is a directory");
  if (regular_only && !S_ISREG(st.st_mode)) return cannot_read(path, "not a regular file");
  std::string text;
  Reservation reserved(S_ISREG(st.st_mode) ? std::min(static_cast<size_t>(st.st_size), max_bytes)
                                           : max_bytes);
  // Read straight into `text`. A regular file is asked for one byte more than its size: when
  // the first read returns exactly its size, that is its end, and the usual single read needs
  // no second one to see EOF. Anything else (a file that grew, a /proc or /sys file whose size
  // says nothing, a pipe) is read in chunks until EOF.
  size_t want = kReadChunk;
  if (S_ISREG(st.st_mode)) {
    if (static_cast<size_t>(st.st_size) > max_bytes) {
      return cannot_read(path, "file is " + std::to_string(st.st_size) +
                                   " bytes, over the limit of " + std::to_string(max_bytes) +
                                   " bytes");
    }
    want = static_cast<size_t>(st.st_size) + 1;
  } else {
    ::fcntl(f.fd, F_SETFL, ::fcntl(f.fd, F_GETFL) & ~O_NONBLOCK);
  }
  for (;;) {
    const size_t have = text.size();
    // One byte past the limit is enough to tell that the input is over it.
    want = std::min(want, max_bytes + 1 - have);
    text.resize(have + want);
    ssize_t n = ::read(f.fd, text.data() + have, want);
    if (n < 0 && errno == EINTR) {
      text.resize(have);
      continue;
    }
    if (n < 0) return cannot_read(path, std::strerror(errno));
    text.resize(have + static_cast<size_t>(n));
    if (text.size() > max_bytes) {
      return cannot_read(path,
                         "input is over the limit of " + std::to_string(max_bytes) + " bytes");
    }
    if (n == 0) break;
    if (have == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        static_cast<size_t>(n) == static_cast<size_t>(st.st_size)) {
      break;
    }
    want = kReadChunk;
  }
  return text;
}

}  // namespace hintkit::fileio
