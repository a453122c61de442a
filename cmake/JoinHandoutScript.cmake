# cmake -DMODULES=resources/handout/js/modules.txt -DOUTPUT=handout.js -P JoinHandoutScript.cmake
# Joins the handout page's script modules, in the order MODULES lists them, into one script: one
# strict closure the modules share (each module's top-level names are the page's; a view registers
# itself with registerView). A line `// ---- module: NAME` starts each module, so that a message
# about the joined script can be traced back to its module (scripts/check-format.sh does).
get_filename_component(_dir "${MODULES}" DIRECTORY)
file(STRINGS "${MODULES}" _modules REGEX "^[^#]")
set(_out "// AttentionScope handout: draws a run that the program packed into this page (the JSON in\n")
string(APPEND _out "// #handout-data, laid out as resources/handout/handout.schema.json says). Plain JavaScript\n")
string(APPEND _out "// and canvas, nothing loaded from anywhere. Joined from resources/handout/js: do not edit.\n")
string(APPEND _out "'use strict';\n(function () {\n")
foreach(_module IN LISTS _modules)
  string(STRIP "${_module}" _module)
  if(_module STREQUAL "")
    continue()
  endif()
  file(READ "${_dir}/${_module}" _text)
  string(APPEND _out "// ---- module: ${_module}\n${_text}")
endforeach()
string(APPEND _out "})();\n")
file(WRITE "${OUTPUT}.new" "${_out}")
file(RENAME "${OUTPUT}.new" "${OUTPUT}")
