// Golden cases for document overlays and `@ytt:overlay`: fixtures/overlay/<case>/ run as
// `hintkit values <cmd>`, expectations recorded from ytt v0.48.0 (fixtures/schema/
// record-from-oracle.sh fixtures/overlay/CASE/).
#include "tests/support/golden.h"

TEST(OverlayGolden, EveryCaseMatchesYttsOutput) {
  hintkit::testing::run_golden_cases({"overlay"}, {"values"});
}
