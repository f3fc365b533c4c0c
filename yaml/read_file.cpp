// Whole-file reads with a size limit, shared by every loader.
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "yaml/yaml.h"

namespace hintkit::yaml {

diag::Result<std::string> read_file(const std::string& path, size_t max_bytes) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return diag::Error{"cannot read " + path + ": " + std::strerror(errno), {}};
  }
  if (S_ISDIR(st.st_mode)) return diag::Error{"cannot read " + path + ": is a directory", {}};
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return diag::Error{"cannot read " + path + ": " + std::strerror(errno), {}};
  std::string text;
  if (S_ISREG(st.st_mode)) {
    if (static_cast<size_t>(st.st_size) > max_bytes) {
      return diag::Error{"cannot read " + path + ": file is " + std::to_string(st.st_size) +
                             " bytes, over the limit of " + std::to_string(max_bytes) + " bytes",
                         {}};
    }
    text.reserve(static_cast<size_t>(st.st_size));
  }
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f.get())) > 0) {
    text.append(buf, n);
    if (text.size() > max_bytes) {
      return diag::Error{"cannot read " + path + ": input is over the limit of " +
                             std::to_string(max_bytes) + " bytes",
                         {}};
    }
  }
  if (std::ferror(f.get())) {
    return diag::Error{"cannot read " + path + ": " + std::strerror(errno), {}};
  }
  return text;
}

}  // namespace hintkit::yaml
