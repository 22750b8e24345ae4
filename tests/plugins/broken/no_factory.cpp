// A library that looks like a plugin by name but exports no loom_plugin factory.
extern "C" __attribute__((visibility("default"))) int loom_test_not_a_factory() { return 42; }
