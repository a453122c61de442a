# Precompiled headers, each made once and reused by every target whose flags match.
#
# The headers are listed by <name>, never by a file path: CMake writes the list into the
# generated cmake_pch.hxx, and an absolute path there would make every file that takes the header
# miss the compiler cache in any other checkout (cmake/CompilerCache.cmake).

# LibTorch, for every target that compiles against it: made once for attentionscope_engine and
# reused by the engine's tests, their support library and the distributed tests
# (target_precompile_headers REUSE_FROM), since a .gch of these headers is half a gigabyte and 17 s
# of compiling.
set(ATTENTIONSCOPE_TORCH_PCH_HEADERS
    <ATen/ATen.h>
    <torch/nn/functional/activation.h>
    <torch/nn/functional/loss.h>
    <torch/nn/module.h>
    <torch/nn/modules/container/modulelist.h>
    <torch/nn/modules/conv.h>
    <torch/nn/modules/dropout.h>
    <torch/nn/modules/embedding.h>
    <torch/nn/modules/linear.h>
    <torch/nn/modules/normalization.h>
    <torch/optim/adam.h>
    <torch/optim/adamw.h>
    <torch/serialize.h>
    <torch/types.h>
    <torch/utils.h>)

# attentionscope_torch_pch(TARGET): TARGET compiles with LibTorch's precompiled header; the engine
# makes it, every other target reuses the engine's (their flags must match the engine's: the same
# warnings, -fopenmp from attentionscope_torch, no -D of their own that LibTorch's headers read).
function(attentionscope_torch_pch target)
  if(target STREQUAL "attentionscope_engine")
    target_precompile_headers(${target} PRIVATE ${ATTENTIONSCOPE_TORCH_PCH_HEADERS})
  else()
    target_precompile_headers(${target} REUSE_FROM attentionscope_engine)
  endif()
endfunction()

# Qt's widgets and test library and QCustomPlot, for the Qt test programs: one file each, so a
# header parsed once per program is parsed once per file; with this they compile in two thirds of
# the time. Two kinds, since a precompiled header is only valid with the Qt modules (QT_*_LIB) it
# was made with: "window" for the tests of the window (attentionscope_gui_window), "widgets" for
# those of the panels (attentionscope_widgets alone).
set(ATTENTIONSCOPE_QT_TEST_PCH_HEADERS <QtWidgets> <QtTest> <widgets/common/qcustomplot_include.h>)

# attentionscope_qt_test_pch(TARGET KIND): the first target of a KIND makes its header, the others
# reuse it.
function(attentionscope_qt_test_pch target kind)
  get_property(donor GLOBAL PROPERTY ATTENTIONSCOPE_QT_TEST_PCH_${kind})
  if(donor)
    target_precompile_headers(${target} REUSE_FROM ${donor})
  else()
    target_precompile_headers(${target} PRIVATE ${ATTENTIONSCOPE_QT_TEST_PCH_HEADERS})
    set_property(GLOBAL PROPERTY ATTENTIONSCOPE_QT_TEST_PCH_${kind} ${target})
  endif()
  # moc's file of a test is all but empty (its test class's moc is included by the test itself).
  get_target_property(binary_dir ${target} BINARY_DIR)
  set_source_files_properties(${binary_dir}/${target}_autogen/mocs_compilation.cpp
                              TARGET_DIRECTORY ${target} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
endfunction()
