# The Debian package, made by CPack's DEB generator (scripts/make-deb.sh):
# attentionscope_<version>_<arch>.deb with both programs and cmake/DesktopFiles.cmake's files, its
# dependencies computed by dpkg-shlibdeps from the libraries the programs link, stripped, under /usr.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME attentionscope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${ATTENTIONSCOPE_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
                                                GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "train transformers live and watch what their attention does
AttentionScope trains small transformers on a laptop CPU while a class
watches: loss and accuracy curves grow, and per-head attention heatmaps and
positional-encoding plots update in dockable panels as the model learns.
.
Tasks: a vision transformer on images, sentiment of film reviews, English to
Italian translation, a small digits task, and pretrained BERT and ViT models,
each with a built-in generated data set so that it runs offline. A finished
run can be scrubbed through, asked about a sentence, review or image,
compared with another, exported for slides or handed out as one offline page.
.
attentionscope-cli trains, evaluates and queries the same runs without a
window.")

# Qt loads its platform and SVG icon plugins at run time, so no linked library names the packages
# that ship them (libqt6gui6 and libqt6svg6 on Debian 12, qt6-qpa-plugins for the platforms on
# Debian 13): ask dpkg which installed package holds each one.
if(ATTENTIONSCOPE_PACKAGE)
  set(runtime_plugin_packages)
  foreach(plugin platforms/libqxcb.so platforms/libqoffscreen.so iconengines/libqsvgicon.so)
    execute_process(COMMAND dpkg-query --search "*/qt6/plugins/${plugin}" OUTPUT_VARIABLE owner
                    RESULT_VARIABLE not_found ERROR_QUIET)
    if(not_found)
      message(FATAL_ERROR "No installed Debian package holds Qt 6's plugin ${plugin}, which the "
                          "program needs at run time")
    endif()
    string(REGEX REPLACE "[:,].*" "" owner "${owner}")
    list(APPEND runtime_plugin_packages ${owner})
  endforeach()
  list(REMOVE_DUPLICATES runtime_plugin_packages)
  string(REPLACE ";" ", " CPACK_DEBIAN_PACKAGE_DEPENDS "${runtime_plugin_packages}")
endif()

include(CPack)
