// Internal: the CLI's one way to spread independent work over a Boost.Asio thread pool.
#pragma once

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <cstddef>
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
  boost::asio::thread_pool pool(workers);
  for (size_t begin = 0; begin < n; begin += chunk) {
    const size_t end = std::min(n, begin + chunk);
    boost::asio::post(pool, [&work, begin, end] {
      for (size_t i = begin; i < end; ++i) work(i);
    });
  }
  pool.join();
}

}  // namespace hintkit::plugin
