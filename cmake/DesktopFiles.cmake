# What a desktop system expects beside the two programs: the desktop entry, the AppStream metainfo,
# the icon, and with ATTENTIONSCOPE_PACKAGE the icon at the usual sizes, the man pages and the
# package's changelog and copyright. `cmake --install` and the Debian package
# (cmake/DebianPackage.cmake) take them. The PNG icons and man pages are made by Debian tools
# (librsvg2-bin, help2man), so an ordinary build needs neither.
include(GNUInstallDirs)
# The desktop entry's, the metainfo's and the icon's name (AppStream wants a reverse-DNS id), and
# the name main.cpp gives QGuiApplication::setDesktopFileName.
set(ATTENTIONSCOPE_APP_ID org.attentionscope.AttentionScope)
set(ATTENTIONSCOPE_MAINTAINER "The AttentionScope developers <maintainers@attentionscope.org>")
set(desktop_sources ${PROJECT_SOURCE_DIR}/resources)
set(desktop_out ${PROJECT_BINARY_DIR}/desktop)
set(icon_svg ${desktop_sources}/icons/attentionscope.svg)
set(ATTENTIONSCOPE_DESKTOP_ENTRY ${desktop_sources}/${ATTENTIONSCOPE_APP_ID}.desktop)
set(ATTENTIONSCOPE_METAINFO ${desktop_out}/${ATTENTIONSCOPE_APP_ID}.metainfo.xml)
configure_file(${desktop_sources}/${ATTENTIONSCOPE_APP_ID}.metainfo.xml.in ${ATTENTIONSCOPE_METAINFO}
               @ONLY)

install(FILES ${ATTENTIONSCOPE_DESKTOP_ENTRY} DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${ATTENTIONSCOPE_METAINFO} DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${icon_svg} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps
        RENAME ${ATTENTIONSCOPE_APP_ID}.svg)

if(NOT ATTENTIONSCOPE_PACKAGE)
  return()
endif()

find_program(ATTENTIONSCOPE_RSVG_CONVERT rsvg-convert)
find_program(ATTENTIONSCOPE_HELP2MAN help2man)
find_program(ATTENTIONSCOPE_GZIP gzip)
find_program(ATTENTIONSCOPE_DATE date)
foreach(tool RSVG_CONVERT HELP2MAN GZIP DATE)
  if(NOT ATTENTIONSCOPE_${tool})
    message(FATAL_ERROR "ATTENTIONSCOPE_PACKAGE needs rsvg-convert (librsvg2-bin), help2man, gzip "
                        "and date: ${tool} was not found (scripts/make-deb.sh installs them)")
  endif()
endforeach()

# The release date of CMakeLists.txt as the changelog wants it, and as the time help2man writes
# into the man pages (so that a rebuild makes the same files).
execute_process(COMMAND ${ATTENTIONSCOPE_DATE} -u -R -d "${ATTENTIONSCOPE_RELEASE_DATE} 12:00"
                OUTPUT_VARIABLE ATTENTIONSCOPE_RELEASE_DATE_RFC2822 OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE date_failed)
execute_process(COMMAND ${ATTENTIONSCOPE_DATE} -u -d "${ATTENTIONSCOPE_RELEASE_DATE} 12:00" +%s
                OUTPUT_VARIABLE release_epoch OUTPUT_STRIP_TRAILING_WHITESPACE)
if(date_failed)
  message(FATAL_ERROR "ATTENTIONSCOPE_RELEASE_DATE is not a date: \"${ATTENTIONSCOPE_RELEASE_DATE}\"")
endif()

set(desktop_outputs)
foreach(size 16 22 24 32 48 64 128 256 512)
  set(png ${desktop_out}/icons/${size}x${size}/${ATTENTIONSCOPE_APP_ID}.png)
  add_custom_command(OUTPUT ${png}
                     COMMAND ${CMAKE_COMMAND} -E make_directory ${desktop_out}/icons/${size}x${size}
                     COMMAND ${ATTENTIONSCOPE_RSVG_CONVERT} --width ${size} --height ${size}
                             --output ${png} ${icon_svg}
                     DEPENDS ${icon_svg} VERBATIM)
  install(FILES ${png} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps)
  list(APPEND desktop_outputs ${png})
endforeach()

# One man page per program, from its own --help and --version, with the description, examples
# and cross-reference of resources/man/<program>.h2m.
set(attentionscope_summary "train transformers live and watch what their attention does")
set(attentionscope-cli_summary "train, evaluate and query transformers without a window")
foreach(program attentionscope attentionscope-cli)
  if(NOT TARGET ${program})
    continue()
  endif()
  set(page ${desktop_out}/man/${program}.1)
  set(extra ${desktop_sources}/man/${program}.h2m)
  add_custom_command(OUTPUT ${page}.gz
                     COMMAND ${CMAKE_COMMAND} -E make_directory ${desktop_out}/man
                     COMMAND ${CMAKE_COMMAND} -E env SOURCE_DATE_EPOCH=${release_epoch}
                             ${ATTENTIONSCOPE_HELP2MAN} --no-info --section 1 --locale C.UTF-8
                             --name ${${program}_summary} --include ${extra} --output ${page}
                             $<TARGET_FILE:${program}>
                     COMMAND ${ATTENTIONSCOPE_GZIP} -9nf ${page}
                     DEPENDS ${program} ${extra} VERBATIM)
  install(FILES ${page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  list(APPEND desktop_outputs ${page}.gz)
endforeach()

# /usr/share/doc/attentionscope: Debian's policy wants the changelog (gzipped, no time stamp) and
# the copyright there.
set(doc_dir ${CMAKE_INSTALL_DATADIR}/doc/attentionscope)
configure_file(${desktop_sources}/debian/changelog.in ${desktop_out}/doc/changelog @ONLY)
add_custom_command(OUTPUT ${desktop_out}/doc/changelog.gz
                   COMMAND ${ATTENTIONSCOPE_GZIP} -9nkf ${desktop_out}/doc/changelog
                   DEPENDS ${desktop_out}/doc/changelog VERBATIM)
install(FILES ${desktop_out}/doc/changelog.gz ${desktop_sources}/debian/copyright
        DESTINATION ${doc_dir})
list(APPEND desktop_outputs ${desktop_out}/doc/changelog.gz)

add_custom_target(attentionscope_desktop_files ALL DEPENDS ${desktop_outputs})
