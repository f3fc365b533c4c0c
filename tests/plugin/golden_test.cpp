// Golden CLI cases for lint, resolve, describe and tazuna.yaml: fixtures/{lint,resolve,describe,tazuna}/<case>/
// (see tests/support/golden.h for the layout and HINTKIT_UPDATE=1).
#include "tests/support/golden.h"

TEST(Golden, EveryCaseMatchesItsExpectedOutput) {
  hintkit::testing::run_golden_cases({"lint", "resolve", "describe", "tazuna"});
}
