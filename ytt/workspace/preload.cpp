#include "ytt/workspace/workspace.h"

namespace hintkit::ytt {

YamlPreloader::YamlPreloader(std::vector<Input> order, bool strict,
                             std::function<void()> on_worker_done, size_t min_bytes_ahead)
    : on_worker_done_(std::move(on_worker_done)), strict_(strict) {
  slots_.reserve(order.size());
  size_t bytes_ahead = 0;
  for (auto& in : order) {
    if (!slots_.empty()) bytes_ahead += in.text.size();
    slots_.push_back(Slot{std::move(in), State::kWaiting, std::nullopt});
  }
  // A single file, or a few small ones after it, gain nothing from a second thread.
  if (slots_.size() > 1 && bytes_ahead >= min_bytes_ahead)
    worker_ = std::thread([this] { work(); });
}

YamlPreloader::~YamlPreloader() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (worker_.joinable()) worker_.join();
}

void YamlPreloader::work() {
  for (size_t k = 1; k < slots_.size(); ++k) {
    Slot& slot = slots_[k];
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return stop_ || k <= asked_ + 1; });
      if (stop_) return;
      if (slot.state != State::kWaiting) continue;
      slot.state = State::kLoading;
    }
    LoadedYaml loaded = load_yaml(slot.input.path, slot.input.text, strict_);
    {
      std::lock_guard lock(mu_);
      slot.loaded = std::move(loaded);
      slot.state = State::kReady;
    }
    cv_.notify_all();
  }
}

std::optional<LoadedYaml> YamlPreloader::take(size_t file_index) {
  std::unique_lock lock(mu_);
  size_t k = 0;
  while (k < slots_.size() && slots_[k].input.file_index != file_index) ++k;
  if (k == slots_.size()) return std::nullopt;
  Slot& slot = slots_[k];
  asked_ = std::max(asked_, k);
  cv_.notify_all();
  std::optional<LoadedYaml> out;
  if (slot.state == State::kWaiting) {  // not started: load it here
    slot.state = State::kTaken;
    lock.unlock();
    // Without a worker the second core is idle: a long file may be read in two halves.
    out =
        load_yaml(slot.input.path, slot.input.text, strict_, !worker_.joinable(), on_worker_done_);
  } else {
    cv_.wait(lock, [&] { return slot.state != State::kLoading; });
    if (slot.state != State::kReady) return std::nullopt;
    slot.state = State::kTaken;
    out = std::move(slot.loaded);
    lock.unlock();
  }
  if (k + 1 == slots_.size()) finish_worker();
  return out;
}

void YamlPreloader::finish_worker() {
  if (!worker_.joinable()) return;
  // Nothing is left for the worker after the last file: let it end, then tell the owner
  // (whose allocator may want to take over the memory the ended thread owned).
  worker_.join();
  if (on_worker_done_) on_worker_done_();
}

}  // namespace hintkit::ytt
