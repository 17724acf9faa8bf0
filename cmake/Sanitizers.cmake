# Sanitizer and fuzzing builds (docs/testing.md). TIRX_SANITIZE instruments everything built with
# AddressSanitizer and UndefinedBehaviorSanitizer; undefined behaviour aborts (no recovery), so a
# test or a fuzz input that triggers it fails. TIRX_FUZZ adds libFuzzer's coverage instrumentation
# (clang only) and builds the fuzz targets of tests/fuzz. scripts/sanitize.sh and scripts/fuzz.sh
# configure these builds in their own build directories.
if(TIRX_FUZZ AND NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "TIRX_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
endif()
if(TIRX_FUZZ)
  set(TIRX_SANITIZE ON)
endif()
if(TIRX_SANITIZE)
  # _GLIBCXX_ASSERTIONS: bounds checks in std::vector/string operator[] that ASan cannot see
  # (an index past size() but inside capacity()).
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer -D_GLIBCXX_ASSERTIONS)
  add_link_options(-fsanitize=address,undefined)
endif()
if(TIRX_FUZZ)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
