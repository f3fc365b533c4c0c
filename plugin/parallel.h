// Internal: the CLI's one way to spread independent work over a Boost.Asio thread pool.
#pragma once

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>

namespace hintkit::plugin {

// Runs `work(i)` for every i in [0, n) on `jobs` threads (0: hardware threads). Items are
// handed out in chunks so tiny items do not drown in scheduling; each call writes only its
// own results, so callers need no locking. Small inputs run inline.
template <typename Work>
void parallel_for(size_t n, unsigned jobs, Work&& work) {
  jobs = jobs ? jobs : std::max(1u, std::thread::hardware_concurrency());
  if (n < 2 || jobs == 1) {
    for (size_t i = 0; i < n; ++i) work(i);
    return;
  }
  const size_t workers = std::min<size_t>(jobs, n);
  const size_t chunk = std::max<size_t>(1, n / (workers * 8));
  // An exception (std::bad_alloc under an address-space limit) leaving a pool thread would end
  // the process: the first one is kept and rethrown here once every thread has stopped.
  std::exception_ptr failed;
  std::mutex failed_mu;
  boost::asio::thread_pool pool(workers);
  for (size_t begin = 0; begin < n; begin += chunk) {
    const size_t end = std::min(n, begin + chunk);
    boost::asio::post(pool, [&work, &failed, &failed_mu, begin, end] {
      try {
        for (size_t i = begin; i < end; ++i) work(i);
      } catch (...) {
        std::lock_guard lock(failed_mu);
        if (!failed) failed = std::current_exception();
      }
    });
  }
  pool.join();
  if (failed) std::rethrow_exception(failed);
}

}  // namespace hintkit::plugin
