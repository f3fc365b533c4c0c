// Loading N private libraries costs time linear in N: each load() of `@libK:...` and each
// library.get("libK").eval() finds its library in a tree built once, and a library's
// evaluation holds its own files only. It was about N^3 (1,000 libraries 3.5-4 s, 5,000 past
// 300 s): every lookup rebuilt the tree with a linear search per folder, and every library
// evaluation copied the whole file set.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <string>

#include "ytt/cmd/cmd.h"
#include "tests/support/temp_dir.h"

namespace {

class LibraryScaling : public hintkit::testing::TempDirTest {
 protected:
  // N libraries `_ytt_lib/libK` (a .star file and a template each) under folder `name`, and
  // a template that uses every one by `how`: "load" or "get".
  std::string make(const std::string& name, int n, const std::string& how) {
    std::string main = "#@ load(\"@ytt:library\", \"library\")\n";
    std::string sum;
    for (int k = 0; k < n; ++k) {
      const std::string lib = name + "/_ytt_lib/lib" + std::to_string(k) + "/";
      write(lib + "lib.star", "def v():\n  return " + std::to_string(k) + "\nend\n");
      write(lib + "t.yml", "#@ load(\"lib.star\", \"v\")\nk: #@ v()\n");
      if (how == "load") {
        main += "#@ load(\"@lib" + std::to_string(k) + ":lib.star\", v" + std::to_string(k) +
                "=\"v\")\n";
        sum += (k ? " + v" : "v") + std::to_string(k) + "()";
      }
    }
    main += how == "load" ? "---\ns: #@ " + sum + "\n"
                          : "---\ncount: #@ len([library.get(\"lib{}\".format(k)).eval() for k in "
                            "range(" +
                                std::to_string(n) + ")])\n";
    write(name + "/main.yml", main);
    return (dir_ / name).string();
  }

  static double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
  }

  // User CPU seconds of one run over `folder`, whose output must be `want`.
  static double run_once(const std::string& folder, const std::string& want) {
    hintkit::ytt::Options o;
    o.files = {folder};
    const double start = cpu_seconds();
    auto r = hintkit::ytt::run(o);
    const double spent = cpu_seconds() - start;
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, want);
    return spent;
  }
};

TEST_F(LibraryScaling, FourTimesTheLibrariesCostsAboutFourTimesTheTime) {
  constexpr int kSmall = 250, kLarge = 1000;
  for (const std::string how : {"load", "get"}) {
    SCOPED_TRACE(how);
    const std::string small = make(how + "-small", kSmall, how);
    const std::string large = make(how + "-large", kLarge, how);
    auto want = [&](int n) {
      return how == "load" ? "s: " + std::to_string(n * (n - 1) / 2) + "\n"
                           : "count: " + std::to_string(n) + "\n";
    };
    run_once(small, want(kSmall));  // warm up (allocator, file cache)
    const double t_small = run_once(small, want(kSmall));
    const double t_large = run_once(large, want(kLarge));
    // Linear: 4x; the N^3 it was: 64x (N^2: 16x). The margin absorbs a loaded machine.
    EXPECT_LT(t_large, 10 * t_small + 0.05)
        << "N=" << kSmall << ": " << t_small << " s, N=" << kLarge << ": " << t_large << " s";
  }
}

}  // namespace
