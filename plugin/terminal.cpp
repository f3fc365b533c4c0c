// Colour and progress decisions for the CLI; see terminal.h.
#include "plugin/terminal.h"

#include <unistd.h>

#include <cstdlib>
#include <iostream>

namespace hintkit::plugin {
namespace {

bool env_set(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0';
}

// The descriptor behind one of the standard streams, -1 for any other stream.
int descriptor_of(const std::ostream& s) {
  if (&s == &std::cout) return STDOUT_FILENO;
  if (&s == &std::cerr) return STDERR_FILENO;
  return -1;
}

}  // namespace

std::string_view to_string(ColorMode mode) {
  switch (mode) {
    case ColorMode::kAuto:
      return "auto";
    case ColorMode::kAlways:
      return "always";
    case ColorMode::kNever:
      return "never";
  }
  return "auto";
}

bool parse_color_mode(std::string_view name, ColorMode& out) {
  for (ColorMode m : {ColorMode::kAuto, ColorMode::kAlways, ColorMode::kNever}) {
    if (to_string(m) == name) {
      out = m;
      return true;
    }
  }
  return false;
}

bool colorize(const Io& io, const std::ostream& to) {
  switch (io.color) {
    case ColorMode::kAlways:
      return true;
    case ColorMode::kNever:
      return false;
    case ColorMode::kAuto:
      break;
  }
  const int fd = descriptor_of(to);
  if (fd < 0 || env_set("NO_COLOR")) return false;
  if (const char* term = std::getenv("TERM"); term && std::string_view(term) == "dumb") {
    return false;
  }
  return ::isatty(fd) == 1;
}

bool progress_wanted(const Io& io) {
  return descriptor_of(io.err) == STDERR_FILENO && ::isatty(STDERR_FILENO) == 1 &&
         !env_set("CI");
}

Progress::Progress(std::ostream& out, bool enabled, size_t total, std::string noun,
                   std::chrono::milliseconds delay)
    : out_(out), total_(total), noun_(std::move(noun)), delay_(delay) {
  if (enabled && total > 0) reporter_ = std::thread([this] { report(); });
}

Progress::~Progress() { finish(); }

void Progress::report() {
  std::unique_lock lock(mu_);
  if (wake_.wait_for(lock, delay_, [this] { return stop_; })) return;
  do {
    draw();
  } while (!wake_.wait_for(lock, kProgressInterval, [this] { return stop_; }));
}

void Progress::draw() {
  drawn_done_ = done_.load(std::memory_order_relaxed);
  out_ << "\rchecked " << drawn_done_ << '/' << total_ << ' ' << noun_ << std::flush;
  drawn_ = true;
  wake_.notify_all();  // a wait_drawn() caller
}

bool Progress::wait_drawn(size_t done, std::chrono::milliseconds limit) {
  std::unique_lock lock(mu_);
  return wake_.wait_for(lock, limit, [&] { return drawn_ && drawn_done_ >= done; });
}

void Progress::finish() {
  if (!reporter_.joinable()) return;
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  reporter_.join();
  // Erase the line: carriage return, then clear to the end of the line (ECMA-48 EL).
  if (drawn_) out_ << "\r\033[K" << std::flush;
}

}  // namespace hintkit::plugin
