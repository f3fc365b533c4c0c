// Tables of valid and invalid values per format, exact reasons for a sample of failures, and
// robustness against binary and huge inputs. Where a format follows Go (url, ip, cidr,
// datetime), the comments say what Go does and why a row is on its side.
#include "formats/formats.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hintkit::formats {
namespace {

struct Case {
  std::string_view input;
  bool valid;
};

// Runs every row and, for invalid rows, checks that the reason reads like a reason.
void expect_table(Format format, const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(to_string(format)) + ": \"" + std::string(c.input) + "\"");
    const std::optional<std::string> reason = check(format, c.input);
    if (c.valid) {
      EXPECT_FALSE(reason.has_value()) << "unexpected reason: " << reason.value_or("");
      continue;
    }
    ASSERT_TRUE(reason.has_value()) << "accepted an invalid value";
    ASSERT_FALSE(reason->empty());
    EXPECT_FALSE(reason->front() >= 'A' && reason->front() <= 'Z') << *reason;
    EXPECT_NE(reason->back(), '.') << *reason;
  }
}

const std::string kLabel63(63, 'a');
const std::string kLabel64(64, 'a');
// 63 + 1 + 63 + 1 + 63 + 1 + 61 = 253 characters, the longest allowed.
const std::string kHost253 =
    kLabel63 + "." + kLabel63 + "." + kLabel63 + "." + std::string(61, 'b');
const std::string kHost254 = kHost253 + "c";
const std::string kLabel63Host = kLabel63 + ".example";
const std::string kLabel64Host = "x." + kLabel64 + ".com";

// ---- names ------------------------------------------------------------------------------

TEST(FormatsNames, ListsEveryFormatInDeclarationOrder) {
  const std::vector<std::string_view> want = {"hostname", "url",  "email",  "ip",
                                              "cidr",     "uuid", "semver", "datetime"};
  const auto got = names();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE(want[i]);
    EXPECT_EQ(got[i], want[i]);
    const auto parsed = parse(want[i]);
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(static_cast<size_t>(*parsed), i);
    EXPECT_EQ(to_string(*parsed), want[i]);
  }
}

TEST(FormatsNames, ParseIsExactAndCaseSensitive) {
  const std::vector<Case> cases = {
      {"url", true},        {"URL", false},
      {"Url", false},       {" url", false},
      {"url ", false},      {"", false},
      {"uri", false},       {"ipv4", false},
      {"date-time", false}, {"datetime", true},
      {"DateTime", false},  {"e-mail", false},
      {"semver", true},     {"hostname", true},
      {"host", false},      {std::string_view("ip\0", 3), false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.input));
    EXPECT_EQ(parse(c.input).has_value(), c.valid);
  }
}

TEST(FormatsNames, OutOfRangeEnumIsHandled) {
  const auto bogus = static_cast<Format>(99);
  EXPECT_EQ(to_string(bogus), "unknown");
  EXPECT_EQ(check(bogus, "x"), std::optional<std::string>("unknown format"));
}

// ---- hostname ---------------------------------------------------------------------------

TEST(FormatsHostname, Table) {
  const std::vector<Case> cases = {
      {"localhost", true},
      {"a", true},
      {"0", true},
      {"123.example.com", true},
      {"EXAMPLE.COM", true},
      {"example.com", true},
      {"a--b.example", true},
      {"xn--bcher-kva.example", true},
      {"sub.domain.example.org", true},
      {"a-b-c", true},
      {"1.2.3.4", true},  // all-numeric labels are fine under RFC 1123
      {kLabel63, true},
      {kLabel63Host, true},
      {kHost253, true},
      {kLabel64, false},
      {kLabel64Host, false},
      {kHost254, false},
      {"-ab.example", false},
      {"ab-.example", false},
      {"example-", false},
      {"-", false},
      {"a.-b", false},
      {"exam_ple.com", false},
      {"_dmarc.example.com", false},
      {"", false},
      {" ", false},
      {"exa mple.com", false},
      {" example.com", false},
      {"example.com ", false},
      {"example.com.", false},
      {".example.com", false},
      {".", false},
      {"a..b", false},
      {"*.example.com", false},
      {"host:80", false},
      {"example.com/path", false},
      {"example.com\n", false},
      {"m\xc3\xbcnchen.example", false},
      {std::string_view("a\0b", 3), false},
  };
  expect_table(Format::kHostname, cases);
}

// ---- url --------------------------------------------------------------------------------

TEST(FormatsUrl, Table) {
  const std::vector<Case> cases = {
      {"https://example.com/path", true},
      {"http://localhost:8080", true},
      // ParseRequestURI keeps '#frag' in the query: "x=1&y=2#frag", which it never checks.
      {"https://user:pass@example.com:8443/a/b?x=1&y=2#frag", true},
      {"mailto:user@example.com", true},
      {"urn:isbn:0451450523", true},
      {"s3://my-bucket/key/path", true},
      {"HTTPS://EXAMPLE.COM/", true},
      {"http://[::1]:8080/", true},
      {"localhost:8080", true},                // scheme "localhost", opaque "8080"
      {"example.com:443", true},               // scheme "example.com", opaque "443"
      {"http:", true},                         // scheme and an empty opaque part
      {"http://", true},                       // empty host
      {"https://example.com/a b", true},       // paths are only checked for bad escapes
      {"http://example.com:/", true},          // ':' with no digits is a valid empty port
      {"http://example.com:99999999/", true},  // ports are digits, not range-checked
      {"http://[fe80::1%25en0]/", true},
      {"http://[::ffff:192.0.2.1]/", true},  // IPv4-mapped IPv6 may be bracketed
      {"http://[2001:DB8::1]:443/x", true},
      {"http://example.com/%E2%9C%93", true},
      {"http://example.com/?q=%zz", true},  // the query is not checked
      {"http://example.com/a#b", true},     // '#' stays in the path
      {"http:///path", true},
      {"http:/path", true},
      {"mailto:%zz", true},  // opaque parts are not checked either
      {"urn:a b c", true},
      {"file:///etc/passwd", true},
      {"git+ssh://git@github.com/x/y.git", true},
      {"http://u%40ser:p%3Ass@host/", true},
      {"http://p@ss@host/", true},          // userinfo ends at the last '@'
      {"http://m\xc3\xbcnchen.de/", true},  // raw non-ASCII host bytes are accepted
      {"http://%C3%BC.de/", true},          // and so are escapes of non-ASCII bytes
      {"http://a.b-c_d~e/", true},
      {"postgres://u@h1:5432,h2:5433/db", true},  // non-http schemes split at the last ':'
      {"foo://::1/", true},
      {"tel:+1-816-555-1212", true},
      {"", false},
      {"/foo", false},  // Go accepts a bare path; we need a scheme
      {"foo", false},
      {"*", false},
      {"example.com/path", false},
      {"://x", false},
      {":foo", false},
      {"1http://x", false},
      {"+http://x", false},
      {"my_scheme://x", false},
      {"ht tp://x", false},
      {"http://x/%zz", false},
      {"http://x/%", false},
      {"http://x/%4", false},
      {"http://x/a%2", false},
      {"http://x:abc/", false},
      {"http://x:8o/", false},
      {"http://x:-1/", false},
      {"http://a:1:2/", false},  // http(s) hosts hold a single ':'
      {"http://::1/", false},
      {"http://[::1", false},
      {"http://[::1]x/", false},
      {"http://[::1]:8o/", false},
      {"http://[1.2.3.4]/", false},  // brackets are for IPv6 only
      {"http://[::g]/", false},
      {"http://[]/", false},
      {"http://[v1.fe]/", false},
      {"http://[fe80::1%25]/", false},   // empty zone
      {"http://[fe80::1%en0]/", false},  // zone must be introduced by %25
      {"http://[fe80::1%25en%2F0]/", false},
      {"http://a[::1]/", false},
      {"http://[::1]]/", false},
      {"http://exa mple.com/", false},
      {"https://example.com#frag", false},  // '#' lands in the host
      {"http://x{y}/", false},
      {"http://%41.com/", false},  // escapes in hosts must be non-ASCII
      {"http://us er@host/", false},
      {"http://user%zz@host/", false},
      {"http://\xc3\xbcser@host/", false},
      {"http://x/\x7f", false},
      {"http://x/\n", false},
      {"http://x\t/", false},
      {"http://x/ok\r\n", false},
      {std::string_view("http://x/\0", 10), false},
  };
  expect_table(Format::kUrl, cases);
}

// ---- email ------------------------------------------------------------------------------

TEST(FormatsEmail, Table) {
  const std::vector<Case> cases = {
      {"user@example.com", true},
      {"first.last@example.co.uk", true},
      {"user+tag@example.io", true},
      {"USER@EXAMPLE.COM", true},
      {"u%x@ex.am", true},
      {"a_b@c-d.ef", true},
      {"1@2.ab", true},
      {"user@sub.domain.example.museum", true},
      // The pattern is lax on purpose; these match it.
      {".user.@example.com", true},
      {"a..b@example.com", true},
      {"user@example..com", true},
      {"user@-example-.com", true},
      {"user@.example.com", true},
      {"user@localhost", false},
      {"user@example.c", false},
      {"@example.com", false},
      {"user@", false},
      {"user", false},
      {"", false},
      {"user name@example.com", false},
      {"user@@example.com", false},
      {"a@b@example.com", false},
      {"user@example.123", false},
      {"user@example.c0m", false},
      {"\xc3\xbcser@example.com", false},
      {"user@example.com ", false},
      {" user@example.com", false},
      {"user@example.com\n", false},
      {"user@exam_ple.com", false},
      {"user@exa mple.com", false},
      {"user@example.com.", false},
      {"user@.com", false},
      {"us\"er@example.com", false},
      {std::string_view("user@example.com\0", 17), false},
  };
  expect_table(Format::kEmail, cases);
}

// ---- ip ---------------------------------------------------------------------------------

TEST(FormatsIp, Table) {
  const std::vector<Case> cases = {
      {"192.168.1.1", true},
      {"0.0.0.0", true},
      {"255.255.255.255", true},
      {"10.0.0.1", true},
      {"1.2.3.4", true},
      {"::", true},
      {"::1", true},
      {"1::", true},
      {"1::8", true},
      {"2001:db8::1", true},
      {"2001:DB8::1", true},
      {"FE80::1", true},
      {"2001:0db8:0000:0000:0000:ff00:0042:8329", true},
      {"0000::0001", true},
      {"1:2:3:4:5:6:7:8", true},
      {"1:2:3:4:5:6:7::", true},
      {"::2:3:4:5:6:7:8", true},
      {"0:0:0:0:0:0:0:0", true},
      {"::ffff:192.0.2.1", true},
      {"::FFFF:192.0.2.1", true},
      {"::192.0.2.1", true},
      {"::ffff:0.0.0.0", true},
      {"64:ff9b::192.0.2.33", true},
      {"1:2:3:4:5:6:1.2.3.4", true},
      {"fe80::", true},
      {"", false},
      {"192.168.01.1", false},  // leading zeros are refused since Go 1.17
      {"00.0.0.0", false},
      {"256.1.1.1", false},
      {"1.2.3.1000", false},
      {"1.2.3", false},
      {"1.2.3.4.5", false},
      {"1..2.3", false},
      {".1.2.3.4", false},
      {"1.2.3.4.", false},
      {"1.2.3.-4", false},
      {"0x7f.0.0.1", false},
      {"1.2.3.4:80", false},
      {"1.2.3.4/32", false},
      {" 1.2.3.4", false},
      {"1.2.3.4 ", false},
      {"\xd9\xa1.2.3.4", false},  // non-ASCII digit
      {"[::1]", false},
      {"[::1]:80", false},
      {"fe80::1%eth0", false},  // zones parse but net.ParseIP refuses them
      {"fe80::1%", false},
      {"%eth0", false},
      {"1.2.3.4%eth0", false},
      {"2001:db8:::1", false},
      {"1:2:3:4:5:6:7:8:9", false},
      {"1:2:3:4:5:6:7", false},
      {"1:2:3:4:5:6:7:8::", false},
      {"1:2:3:4::5:6:7:8", false},  // '::' must stand for at least one group
      {":1::", false},
      {"::1:", false},
      {"1:", false},
      {":::", false},
      {"1::2::3", false},
      {"12345::1", false},
      {"g::1", false},
      {"::ffff:1.2.3", false},
      {"::ffff:1.2.3.256", false},
      {"::ffff:01.2.3.4", false},
      {"1:2:3:4:5:6:7:1.2.3.4", false},
      {"1:2:3:4:5:1.2.3.4", false},
      {"1:2:3:4:5:6::1.2.3.4", false},
      {"::1.2.3.4:1", false},
      {"example.com", false},
      {"localhost", false},
      {"::1 ", false},
  };
  expect_table(Format::kIp, cases);
}

// ---- cidr -------------------------------------------------------------------------------

TEST(FormatsCidr, Table) {
  const std::vector<Case> cases = {
      {"10.0.0.0/8", true},
      {"10.0.0.0/08", true},  // Go reads the prefix with a plain digit loop
      {"10.0.0.0/008", true},
      {"1.2.3.4/00000000000000000000000032", true},
      {"192.168.1.0/24", true},
      {"192.168.1.1/24", true},  // host bits may be set
      {"0.0.0.0/0", true},
      {"10.0.0.0/0", true},
      {"255.255.255.255/32", true},
      {"::/0", true},
      {"::1/128", true},
      {"2001:db8::/32", true},
      {"2001:db8::/032", true},
      {"2001:DB8::/48", true},
      {"fe80::/10", true},
      {"::ffff:1.2.3.4/96", true},
      {"::ffff:1.2.3.4/128", true},  // IPv4-mapped counts as IPv6: 128 bits
      {"", false},
      {"10.0.0.0", false},
      {"10.0.0.0/", false},
      {"/8", false},
      {"10.0.0.0/33", false},
      {"::/129", false},
      {"::ffff:1.2.3.4/129", false},
      {"10.0.0.0/-1", false},
      {"10.0.0.0/+8", false},
      {"10.0.0.0/8/8", false},
      {"10.0.0.0/ 8", false},
      {"10.0.0.0/8 ", false},
      {" 10.0.0.0/8", false},
      {"10.0.0.0/0x8", false},
      {"10.0.0.0/3.2", false},
      {"10.0.0.0/99999999999999999999", false},
      {"::/1a", false},
      {"010.0.0.0/8", false},
      {"256.0.0.0/8", false},
      {"10.0.0/8", false},
      {"fe80::1%eth0/64", false},
      {"[::1]/128", false},
      {"10.0.0.0\\8", false},
      {"example.com/8", false},
  };
  expect_table(Format::kCidr, cases);
}

// ---- uuid -------------------------------------------------------------------------------

TEST(FormatsUuid, Table) {
  const std::vector<Case> cases = {
      {"123e4567-e89b-12d3-a456-426614174000", true},
      {"123E4567-E89B-12D3-A456-426614174000", true},
      {"123e4567-E89B-12d3-A456-426614174000", true},
      {"00000000-0000-0000-0000-000000000000", true},
      {"ffffffff-ffff-ffff-ffff-ffffffffffff", true},
      {"123e4567-e89b-f2d3-a456-426614174000", true},  // version nibble not checked
      {"", false},
      {"123e4567e89b12d3a456426614174000", false},
      {"{123e4567-e89b-12d3-a456-426614174000}", false},
      {"urn:uuid:123e4567-e89b-12d3-a456-426614174000", false},
      {"123e4567-e89b-12d3-a456-42661417400", false},
      {"123e4567-e89b-12d3-a456-4266141740000", false},
      {"g23e4567-e89b-12d3-a456-426614174000", false},
      {"123e4567-e89b-12d3-a456_426614174000", false},
      {"123e456-7e89b-12d3-a456-426614174000", false},
      {"123e4567-e89b-12d3-a456-426614174000 ", false},
      {"123e4567-e89b-12d3-a456-426614174000\n", false},
      {"123e4567-e89b-12d3-a456-4266-14174000", false},
      {"--------------------------------------", false},
  };
  expect_table(Format::kUuid, cases);
}

// ---- semver -----------------------------------------------------------------------------

TEST(FormatsSemver, Table) {
  const std::vector<Case> cases = {
      {"0.0.0", true},
      {"1.2.3", true},
      {"v1.2.3", true},
      {"10.20.30", true},
      {"99999999999999999999.0.0", true},
      {"1.0.0-alpha", true},
      {"1.0.0-alpha.1", true},
      {"1.0.0-alpha.beta", true},
      {"1.0.0-0", true},
      {"1.0.0-0.3.7", true},
      {"1.0.0-x.7.z.92", true},
      {"1.0.0-0A.is.legal", true},
      {"1.0.0-x-y-z.--", true},
      {"1.0.0--", true},
      {"1.0.0+21AF26D3----117B344092BD", true},
      {"1.0.0-alpha+001", true},
      {"1.0.0+001", true},  // build metadata may have leading zeros
      {"1.2.3-rc.1+build.5", true},
      {"v2.0.0-rc.1+build.123", true},
      {"", false},
      {"v", false},
      {"V1.2.3", false},
      {"vv1.2.3", false},
      {"01.02.03", false},
      {"1.02.3", false},
      {"1.2.03", false},
      {"v0001.0.0", false},
      {"1.2.3-01", false},
      {"1.2.3-alpha.01", false},
      {"1.2", false},
      {"1", false},
      {"1.2.3.4", false},
      {"1..3", false},
      {"1.2.-3", false},
      {"-1.2.3", false},
      {"a.b.c", false},
      {"1.2.3-", false},
      {"1.2.3+", false},
      {"1.2.3-+b", false},
      {"1.2.3+.b", false},
      {"1.2.3-alpha..1", false},
      {"1.2.3-alpha.", false},
      {"1.2.3-alpha_1", false},
      {"1.2.3+build+2", false},
      {"1.2.3-\xc3\xa9", false},
      {" 1.2.3", false},
      {"1.2.3 ", false},
  };
  expect_table(Format::kSemver, cases);
}

// ---- datetime ---------------------------------------------------------------------------

TEST(FormatsDatetime, Table) {
  const std::vector<Case> cases = {
      {"2024-01-15T09:30:00Z", true},
      {"2024-01-15T09:30:00.123Z", true},
      {"2024-01-15T09:30:00.1Z", true},
      {"2024-01-15T09:30:00.123456789123Z", true},  // any number of fraction digits
      {"2024-01-15T09:30:00+05:30", true},
      {"2024-01-15T09:30:00-08:00", true},
      {"2024-01-15T09:30:00+00:00", true},
      {"2024-01-15T09:30:00-00:00", true},
      {"2024-12-31T23:59:59.9-23:59", true},
      {"2024-02-29T00:00:00Z", true},
      {"2000-02-29T00:00:00Z", true},
      {"0000-02-29T00:00:00Z", true},  // year 0 is a leap year
      {"0000-01-01T00:00:00Z", true},
      {"9999-12-31T23:59:59Z", true},
      {"2024-04-30T12:00:00Z", true},
      {"2024-01-31T00:00:00Z", true},
      {"", false},
      {"2024-01-15", false},
      {"2024-01-15T09:30:00", false},
      {"2024-01-15 09:30:00Z", false},
      {"2024-01-15t09:30:00Z", false},  // Go refuses lower-case t and z
      {"2024-01-15T09:30:00z", false},
      {"2024-01-15T9:30:00Z", false},
      {"2024-01-15T09:30:00,123Z", false},
      {"2024-01-15T09:30:00.Z", false},
      {"2024-01-15T09:30:00.", false},
      {"2023-02-29T00:00:00Z", false},
      {"1900-02-29T00:00:00Z", false},
      {"2024-04-31T00:00:00Z", false},
      {"2024-13-01T00:00:00Z", false},
      {"2024-00-01T00:00:00Z", false},
      {"2024-01-00T00:00:00Z", false},
      {"2024-01-32T00:00:00Z", false},
      {"2024-01-15T24:00:00Z", false},
      {"2024-01-15T23:60:00Z", false},
      {"2024-01-15T23:59:60Z", false},  // no leap seconds
      {"2024-01-15T09:30:00+24:00", false},
      {"2024-01-15T09:30:00+05:60", false},
      {"2024-01-15T09:30:00+0530", false},
      {"2024-01-15T09:30:00+05", false},
      {"2024-01-15T09:30:00+5:30", false},
      {"2024-01-15T09:30:00+05:30:00", false},
      {"2024-01-15T09:30:00Z ", false},
      {" 2024-01-15T09:30:00Z", false},
      {"2024-01-15T09:30:00ZZ", false},
      {"2024-01-15T09:30:00UTC", false},
      {"24-01-15T09:30:00Z", false},
      {"+2024-01-15T09:30:00Z", false},
      {"12024-01-15T09:30:00Z", false},
      {"2024-1-15T09:30:00Z", false},
      {"2024/01/15T09:30:00Z", false},
      {"2024-01-15T09:30Z", false},
      {"2024-01-15T09-30-00Z", false},
  };
  expect_table(Format::kDatetime, cases);
}

// ---- reasons ----------------------------------------------------------------------------

struct ReasonCase {
  Format format;
  std::string_view input;
  std::string_view want;
};

TEST(FormatsReasons, NameWhatIsWrong) {
  const std::vector<ReasonCase> cases = {
      {Format::kHostname, "-ab.example", R"(label "-ab" starts with '-')"},
      {Format::kHostname, "ab-", R"(label "ab-" ends with '-')"},
      {Format::kHostname, "exam_ple.com", R"(invalid character '_' in label "exam_ple")"},
      {Format::kHostname, "", "hostname is empty"},
      {Format::kHostname, "a..b", "empty label between two dots"},
      {Format::kHostname, "example.com.", "hostname ends with '.'"},
      {Format::kHostname, kLabel64, "label 1 has 64 characters, more than 63"},
      {Format::kHostname, kHost254, "hostname has 254 characters, more than 253"},
      {Format::kUrl, "/foo", "missing scheme"},
      {Format::kUrl, "://x", "missing scheme before ':'"},
      {Format::kUrl, "1http://x", R"(scheme "1http" must start with a letter)"},
      {Format::kUrl, "my_scheme://x", R"(invalid character '_' in scheme "my_scheme")"},
      {Format::kUrl, "http://x/%zz", R"(invalid percent-escape "%zz" in path)"},
      {Format::kUrl, "http://x:abc/", R"(invalid port ":abc" after host)"},
      {Format::kUrl, "http://[::1", "missing ']' in host"},
      {Format::kUrl, "http://x/\n", R"(control character '\x0a' in url)"},
      {Format::kUrl, "http://%41.com/",
       R"(percent-escape "%41" in host must encode a non-ASCII byte)"},
      {Format::kUrl, "http://[1.2.3.4]/",
       R"(host "[1.2.3.4]" is IPv4; brackets are only for IPv6 addresses)"},
      {Format::kIp, "256.1.1.1", "octet 256 is out of range"},
      {Format::kIp, "192.168.01.1", R"(octet "01" has a leading zero)"},
      {Format::kIp, "1.2.3", "address has 3 octets, want 4"},
      {Format::kIp, "fe80::1%eth0", R"(zone "%eth0" is not allowed)"},
      {Format::kIp, "2001:db8:::1", "too many ':' in a row"},
      {Format::kIp, "1:2:3:4:5:6:7:8:9", "address has more than 8 groups"},
      {Format::kCidr, "10.0.0.0/33", "prefix length 33 is more than 32 for IPv4"},
      {Format::kCidr, "10.0.0.0", "missing '/' and prefix length"},
      {Format::kCidr, "10.0.0.0/x", R"(prefix length "x" is not a decimal number)"},
      {Format::kEmail, "user@localhost", R"(domain "localhost" has no '.')"},
      {Format::kEmail, "user", "missing '@'"},
      {Format::kEmail, "user@example.c", R"(top-level domain "c" is shorter than two letters)"},
      {Format::kUuid, "123e4567-e89b-12d3-a456-42661417400", "group 5 has 11 hex digits, want 12"},
      {Format::kUuid, "g23e4567-e89b-12d3-a456-426614174000", "invalid character 'g' in group 1"},
      {Format::kSemver, "V1.2.3", "prefix must be a lower-case 'v'"},
      {Format::kSemver, "01.2.3", R"(major version "01" has a leading zero)"},
      {Format::kSemver, "1.2.3-01", R"(numeric pre-release identifier "01" has a leading zero)"},
      {Format::kDatetime, "2024-01-15T9:30:00Z", "hour must have two digits"},
      {Format::kDatetime, "2023-02-29T00:00:00Z", "day 29 is out of range for 2023-02 (28 days)"},
      {Format::kDatetime, "2024-01-15T09:30:00+24:00", "offset hour 24 is out of range (00-23)"},
      {Format::kDatetime, "2024-01-15t09:30:00Z", "lower-case 't' is not accepted, use 'T'"},
      {Format::kDatetime, "2024-01-15T09:30:00,5Z", "fractional seconds must follow '.', not ','"},
  };
  for (const ReasonCase& c : cases) {
    SCOPED_TRACE(std::string(to_string(c.format)) + ": \"" + std::string(c.input) + "\"");
    EXPECT_EQ(check(c.format, c.input).value_or("<valid>"), c.want);
  }
}

TEST(FormatsReasons, QuoteLongAndBinaryInputBriefly) {
  std::string label(1, '-');
  label.append(60, 'a');
  const auto reason = check(Format::kHostname, label + ".example");
  ASSERT_TRUE(reason.has_value());
  std::string want = R"(label "-)";
  want.append(39, 'a');
  want += R"(..." starts with '-')";
  EXPECT_EQ(*reason, want);

  const auto binary = check(Format::kHostname, std::string_view("a\x01\xff", 3));
  ASSERT_TRUE(binary.has_value());
  EXPECT_EQ(*binary, R"(invalid character '\x01' in label "a\x01\xff")");
}

// ---- robustness -------------------------------------------------------------------------

// Values no checker should choke on, valid or not.
std::vector<std::string> hostile_values() {
  constexpr size_t kBig = 4u << 20;  // 4 MiB: far past any real value, quick to scan
  std::vector<std::string> values = {
      std::string(kBig, 'a'),
      std::string(kBig, ':'),
      std::string(kBig, '.'),
      std::string(kBig, '%'),
      std::string(kBig, '['),
      std::string(kBig, '0'),
      std::string(kBig, '\0'),
      std::string(kBig, '\xff'),
      "http://" + std::string(kBig, '@'),
      "http://[" + std::string(kBig, ':') + "]/",
      "1.2.3.4/" + std::string(kBig, '0') + "8",
      "::ffff:" + std::string(kBig, '1'),
      "v1.2.3-" + std::string(kBig, '.'),
      "x@" + std::string(kBig, 'a') + ".com",
  };
  std::mt19937 rng(20240115);  // fixed seed: failures must reproduce
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<size_t> length(0, 80);
  const std::string alphabet = "0123456789abcdefABCDEF:.%/[]@-+TZ_?#";
  std::uniform_int_distribution<size_t> pick(0, alphabet.size() - 1);
  for (int i = 0; i < 2000; ++i) {
    std::string random(length(rng), '\0');
    for (char& c : random) c = static_cast<char>(byte(rng));
    values.push_back(std::move(random));
    std::string textish(length(rng), '\0');
    for (char& c : textish) c = alphabet[pick(rng)];
    values.push_back(std::move(textish));
  }
  return values;
}

TEST(FormatsRobustness, HugeAndBinaryValuesGetAReasonOrPass) {
  const std::vector<std::string> values = hostile_values();
  for (std::string_view name : names()) {
    const Format format = *parse(name);
    for (const std::string& value : values) {
      const auto reason = check(format, value);
      if (reason) {
        ASSERT_FALSE(reason->empty()) << name;
        ASSERT_LT(reason->size(), 400u) << name << ": " << *reason;
      }
    }
  }
}

TEST(FormatsRobustness, LongFractionIsStillADatetime) {
  const std::string value = "2024-01-15T09:30:00." + std::string(1u << 20, '7') + "Z";
  EXPECT_FALSE(check(Format::kDatetime, value).has_value());
}

}  // namespace
}  // namespace hintkit::formats
