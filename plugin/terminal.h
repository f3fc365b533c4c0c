// Internal: what the CLI does differently on a terminal. Colour (`--color auto|always|never`,
// NO_COLOR) for the text diagnostics renderer, and `Progress`, the "checked N/M hint files"
// line redrawn on stderr during long runs. Nothing here ever writes to a pipe or a file
// unless asked to with `--color always`.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <iosfwd>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "plugin/plugin.h"

namespace hintkit::plugin {

// "auto", "always", "never"; nullopt-like kAuto for anything else is the caller's business.
std::string_view to_string(ColorMode mode);
bool parse_color_mode(std::string_view name, ColorMode& out);

// Whether text written to `to` gets colour. always/never decide alone; auto colours only
// std::cout or std::cerr when that descriptor is a terminal, NO_COLOR is absent or empty
// (https://no-color.org) and TERM is not "dumb".
bool colorize(const Io& io, const std::ostream& to);

// Whether a progress line may be drawn on `io.err`: it is std::cerr, stderr is a terminal and
// CI is absent or empty (CI logs are files: a redrawn line is noise there).
bool progress_wanted(const Io& io);

// A run waits this long before its first progress line: shorter runs print nothing.
inline constexpr std::chrono::milliseconds kProgressDelay{1000};
// Redraws at most this often (10 a second): more is flicker and costs the workers nothing
// useful.
inline constexpr std::chrono::milliseconds kProgressInterval{100};

// "checked N/M <noun>" redrawn with \r on `out` by a reporter thread, first after `delay`,
// then every kProgressInterval; `tick()` is safe from any thread. `finish()` (or the
// destructor) stops the reporter and erases the line if one was drawn, so what is printed
// next starts on a clean line. Disabled: no thread, no output.
class Progress {
 public:
  Progress(std::ostream& out, bool enabled, size_t total, std::string noun,
           std::chrono::milliseconds delay = kProgressDelay);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void tick() { done_.fetch_add(1, std::memory_order_relaxed); }
  void finish();
  // Blocks until a line showing at least `done` has been drawn, or `limit` passed; true if
  // drawn. For tests: they wait for the event instead of sleeping and hoping.
  bool wait_drawn(size_t done, std::chrono::milliseconds limit);

 private:
  void report();
  void draw();

  std::ostream& out_;
  const size_t total_;
  const std::string noun_;
  const std::chrono::milliseconds delay_;
  std::atomic<size_t> done_{0};
  std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;
  bool drawn_ = false;
  size_t drawn_done_ = 0;  // the count the last line showed
  std::thread reporter_;
};

}  // namespace hintkit::plugin
