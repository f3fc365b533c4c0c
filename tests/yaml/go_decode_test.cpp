// tazuna's YAML 1.1 reading into string fields (sigs.k8s.io/yaml over go-yaml v2).

#include <gtest/gtest.h>

#include "yaml/yaml.h"

namespace hintkit::yaml {
namespace {


struct Case {
  std::string_view plain;  // a plain scalar as written
  std::string_view value;  // the string a string field receives
  std::string_view key;    // the string a map key becomes
};

TEST(GoDecode, PlainScalarsBecomeTheirGoSpelling) {
  const Case cases[] = {
      {"0755", "493", "493"},     // YAML 1.1 octal
      {"0x1F", "31", "31"},       // hex
      {"0b101", "5", "5"},        // binary
      {"1_000", "1000", "1000"},  // underscores
      {"-12", "-12", "-12"},
      {"1.50", "1.5", "1.5"},
      {"1.0", "1", "1"},
      {"3.14159265", "3.1415927", "3.1415927"},  // float32 precision
      {"123456.0", "123456", "123456"},
      {"1234567.0", "1.234567e+06", "1.234567e+06"},
      {"1e6", "1e+06", "1e+06"},
      {"0.0001", "0.0001", "0.0001"},
      {"0.00001", "1e-05", "1e-05"},
      {"-0.0", "-0", "-0"},
      {".5", "0.5", "0.5"},
      {".inf", "+Inf", ".inf"},
      {"-.inf", "-Inf", "-.inf"},
      {".nan", "NaN", ".nan"},
      {"yes", "true", "true"},
      {"on", "true", "true"},
      {"Off", "false", "false"},
      {"n", "false", "false"},
      {"true", "true", "true"},
      {"18446744073709551615", "18446744073709551615", "18446744073709551615"},
      {"2024-01-02", "2024-01-02", "2024-01-02"},  // timestamps stay text in go-yaml v2
      {"8080", "8080", "8080"},
      {"web", "web", "web"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.plain);
    const yaml::Node n = yaml::resolve_plain_scalar(c.plain);
    EXPECT_EQ(go_string(n), c.value);
    EXPECT_EQ(go_key_string(n), c.key);
  }
}

TEST(GoDecode, QuotedScalarsKeepTheirText) {
  yaml::Node n = yaml::make_string("0755");
  EXPECT_EQ(go_string(n), "0755");
  EXPECT_EQ(go_string(make_null()), "");
}

}  // namespace
}  // namespace hintkit::yaml
