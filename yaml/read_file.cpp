// Whole-file reads with a size limit, shared by every loader.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "yaml/yaml.h"

namespace hintkit::yaml {
namespace {

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

diag::Error cannot_read(const std::string& path, const std::string& why) {
  return diag::Error{"cannot read " + path + ": " + why, {}};
}

}  // namespace

diag::Result<std::string> read_file(const std::string& path, size_t max_bytes) {
  // Non-blocking open: a FIFO nobody writes to must not hang us (it reads as empty);
  // process substitution (`--values <(cmd)`) still works, its writer is already there.
  Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (f.fd < 0) return cannot_read(path, std::strerror(errno));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) return cannot_read(path, std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return cannot_read(path, "is a directory");
  std::string text;
  if (S_ISREG(st.st_mode)) {
    if (static_cast<size_t>(st.st_size) > max_bytes) {
      return cannot_read(path, "file is " + std::to_string(st.st_size) +
                                   " bytes, over the limit of " + std::to_string(max_bytes) +
                                   " bytes");
    }
    text.reserve(static_cast<size_t>(st.st_size));
  } else {
    ::fcntl(f.fd, F_SETFL, ::fcntl(f.fd, F_GETFL) & ~O_NONBLOCK);
  }
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(f.fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return cannot_read(path, std::strerror(errno));
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
    if (text.size() > max_bytes) {
      return cannot_read(path,
                         "input is over the limit of " + std::to_string(max_bytes) + " bytes");
    }
  }
  return text;
}

}  // namespace hintkit::yaml
