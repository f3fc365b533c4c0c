// fileio::read_file: whole files, whatever their size says, within the limit.
#include "fileio/fileio.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "tests/support/run_binary.h"

namespace hintkit::fileio {
namespace {

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "read_file_test_" + name;
}

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = temp_path(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(ReadFile, RegularFilesOfEverySizeAroundTheChunk) {
  for (size_t size : {0, 1, 4095, 65535, 65536, 65537, 200001}) {
    std::string text(size, 'x');
    for (size_t i = 0; i < size; ++i) text[i] = static_cast<char>('a' + i % 26);
    const std::string path = write_temp("size" + std::to_string(size), text);
    auto got = read_file(path, 1 << 20);
    ASSERT_TRUE(got.ok()) << size << ": " << got.error().message;
    EXPECT_EQ(*got, text) << size;
    std::remove(path.c_str());
  }
}

TEST(ReadFile, OverTheLimitIsRefused) {
  const std::string path = write_temp("big", std::string(101, 'x'));
  auto got = read_file(path, 100);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.error().message.find("over the limit of 100 bytes"), std::string::npos)
      << got.error().message;
  auto exact = read_file(path, 101);
  ASSERT_TRUE(exact.ok());
  EXPECT_EQ(exact->size(), 101u);
  std::remove(path.c_str());
}

// /proc files say they are empty (st_size 0) and are read in short pieces: all of it must come.
TEST(ReadFile, FilesWhoseSizeSaysNothingAreReadToTheEnd) {
  for (const char* path : {"/proc/self/cmdline", "/proc/version", "/proc/self/mountinfo"}) {
    std::ifstream probe(path);
    if (!probe) continue;
    auto got = read_file(path, 1 << 24);
    ASSERT_TRUE(got.ok()) << path << ": " << got.error().message;
    EXPECT_FALSE(got->empty()) << path;
    EXPECT_EQ(*got, hintkit::testing::slurp(path)) << path;
  }
}

TEST(ReadFile, FolderIsRefused) {
  auto got = read_file(::testing::TempDir(), 100);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.error().message.find("is a directory"), std::string::npos);
}

}  // namespace
}  // namespace hintkit::fileio
