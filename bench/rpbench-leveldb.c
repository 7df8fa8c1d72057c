#include "backends.h"
#include "driver.h"

int main(int argc, char **argv) { return rpb_main(&rpb_backend_leveldb, argc, argv); }
