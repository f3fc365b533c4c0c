#include "starlark/thread.h"

namespace hintkit::starlark {

constinit thread_local ThreadState* g_thread [[gnu::tls_model("local-exec")]] = nullptr;

void throw_error(std::string message) { throw EvalError{std::move(message)}; }
void throw_limit(std::string message) { throw EvalError(std::move(message), ErrorKind::kLimit); }

ThreadState& current_thread() { return *g_thread; }

void charge_bytes(size_t n) {
  if (g_thread && n >= kBytesPerStep) g_thread->charge(static_cast<int64_t>(n / kBytesPerStep));
}

void charge_elements(size_t n) {
  if (g_thread && n > 0) g_thread->charge(static_cast<int64_t>(n));
}

void check_string_size(size_t n) {
  size_t max = g_thread ? g_thread->options.limits.max_string_bytes : kMaxStringBytes;
  if (n > max) {
    throw_limit("string too large: " + std::to_string(n) + " bytes exceeds the limit of " +
                std::to_string(max));
  }
}

void check_collection_size(size_t n) {
  size_t max = g_thread ? g_thread->options.limits.max_collection_len : kMaxCollectionLen;
  if (n > max) {
    throw_limit("collection too large: " + std::to_string(n) + " elements exceeds the limit of " +
                std::to_string(max));
  }
}

ContainerList::~ContainerList() {
  for (GcLink* head : {&young, &old}) {
    GcLink* l = head->gc_next;
    while (l != head) {
      GcLink* next = l->gc_next;
      l->gc_prev = l->gc_next = nullptr;
      l = next;
    }
  }
}

}  // namespace hintkit::starlark
