// The one source of a test folder's precompiled-header host library
// (tests/CMakeLists.txt, amn_test_pch_host): the suites of that folder reuse
// the precompiled header it builds. Nothing else lives here.
