// The one Catch2 main, compiled once and linked into every test program and exercise check.
#define ATTIC_CATCH2_RUNNER
#include "tests/catch.h"

int main(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
