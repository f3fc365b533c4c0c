// Input files named by a link to a pipe, as a shell's `<(...)` gives them (`/dev/fd/63`):
// ytt lets such links through (their target, `pipe:[N]`, is on no disk), while other symlinks
// stay refused. Expected texts are ytt v0.48.0's for the same inputs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "ytt/cmd/cmd.h"
#include "tests/support/temp_dir.h"

namespace {

using hintkit::ytt::Options;
using hintkit::ytt::run;

// A pipe holding `text`, its write end closed: readable through /dev/fd/N like `<(...)`.
class PipeInput {
 public:
  explicit PipeInput(const std::string& text) {
    if (::pipe(fds_) != 0) throw std::runtime_error("pipe");
    if (::write(fds_[1], text.data(), text.size()) != static_cast<ssize_t>(text.size()))
      throw std::runtime_error("write");
    ::close(fds_[1]);
  }
  ~PipeInput() { ::close(fds_[0]); }
  std::string path() const { return "/dev/fd/" + std::to_string(fds_[0]); }

 private:
  int fds_[2];
};

TEST(PipeLinks, TemplateFromAPipeLinkIsReadUnderItsGivenName) {
  PipeInput in("a: 1\n");
  Options o;
  o.files = {"pipe.yml=" + in.path()};
  auto r = run(o);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "a: 1\n");
}

TEST(PipeLinks, DataValuesFromPipeLinksReachTheTemplate) {
  PipeInput tpl("#@ load(\"@ytt:data\", \"data\")\n---\nv: #@ data.values\n");
  PipeInput dv("#@data/values\n---\na: 1\nb: \"\"\n");
  PipeInput file("a: 2\n");
  PipeInput value("zz\n");
  Options o;
  o.files = {"t.yml=" + tpl.path(), "v.yml=" + dv.path()};
  o.data_values_files = {file.path()};
  o.data_value_file = {"b=" + value.path()};
  auto r = run(o);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "v:\n  a: 2\n  b: |\n    zz\n");
}

class OtherLinks : public hintkit::testing::TempDirTest {};

TEST_F(OtherLinks, ALinkToAFileIsStillRefused) {
  write("real.yml", "a: 1\n");
  std::filesystem::create_symlink("real.yml", dir_ / "link.yml");
  Options o;
  o.files = {(dir_ / "link.yml").string()};
  auto r = run(o);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("Expected symlink file '" + (dir_ / "link.yml").string() + "' -> "),
            std::string::npos)
      << r.err;
}

}  // namespace
