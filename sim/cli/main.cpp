// The `ridge` command's entry point; everything it does is run_main (run_main.cpp).
#include "sim/cli/commands.hpp"

int main(int argc, char** argv) { return ridge::cli::run_main(argc, argv); }
