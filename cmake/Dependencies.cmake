# Third-party dependencies: nlohmann/json and the CUDA toolkit (NVRTC, nvJitLink) for the core;
# Qt 6 and QScintilla for the studio and tests. libcuda is never linked: core/device dlopens it.
find_package(nlohmann_json 3.10 REQUIRED)

find_package(CUDAToolkit REQUIRED)
# CMake 3.25's CUDA::nvrtc links the driver stub; a binary built with it then needs libcuda.so.1
# to start. Clear it and load the driver with dlopen at run time instead.
set_property(TARGET CUDA::nvrtc PROPERTY INTERFACE_LINK_LIBRARIES "")
if(NOT TARGET CUDA::nvJitLink)
  find_library(CUDA_nvJitLink_LIBRARY NAMES nvJitLink HINTS "${CUDAToolkit_LIBRARY_DIR}" REQUIRED)
  add_library(CUDA::nvJitLink UNKNOWN IMPORTED)
  set_target_properties(CUDA::nvJitLink PROPERTIES IMPORTED_LOCATION "${CUDA_nvJitLink_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${CUDAToolkit_INCLUDE_DIRS}")
else()
  set_property(TARGET CUDA::nvJitLink PROPERTY INTERFACE_LINK_LIBRARIES "")
endif()

# AUTOMOC/AUTORCC are switched on per Qt target (views/, tests/), not globally: the core and the
# CLI have no Qt, and a global AUTOMOC gave every core module a moc scan step and an autogen
# include directory.
if(TIRX_BUILD_GUI OR TIRX_BUILD_TESTS)
  find_package(Qt6 REQUIRED COMPONENTS Core Test)
endif()
if(TIRX_BUILD_GUI)
  find_package(Qt6 REQUIRED COMPONENTS Widgets Charts Svg PrintSupport Concurrent)
  find_path(QSCINTILLA_INCLUDE_DIR Qsci/qsciscintilla.h PATH_SUFFIXES qt6 REQUIRED)
  find_library(QSCINTILLA_LIBRARY NAMES qscintilla2_qt6 REQUIRED)
  add_library(QScintilla::QScintilla UNKNOWN IMPORTED)
  set_target_properties(QScintilla::QScintilla PROPERTIES
    IMPORTED_LOCATION "${QSCINTILLA_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${QSCINTILLA_INCLUDE_DIR}"
    INTERFACE_COMPILE_DEFINITIONS QSCINTILLA_DLL
    INTERFACE_LINK_LIBRARIES "Qt6::Widgets;Qt6::PrintSupport")
endif()
