# Writes one man page with help2man from the binary's own --help (the same option
# declarations the command line parses): ridge.1 for `ridge --help`, ridge-CMD.1 for
# `ridge CMD --help`, named after the command, with its one-line synopsis from the
# command table (`ridge --help`) as the NAME line.
# cmake -DHELP2MAN=... -DRIDGE=build/ridge -DRIDGE_COMMAND=analyze|"" -DOUT=page.1 -P man_page.cmake
execute_process(COMMAND ${RIDGE} --help OUTPUT_VARIABLE top RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${RIDGE} --help failed")
endif()
if(RIDGE_COMMAND STREQUAL "")
  set(title "ridge")
  set(synopsis "analytic roofline performance simulator for deep-learning workloads")
  set(help_option "--help")
else()
  set(title "ridge-${RIDGE_COMMAND}")
  string(REGEX MATCH "\n  ${RIDGE_COMMAND} +([^\n]*)" line "${top}")
  if(NOT line)
    message(FATAL_ERROR "command '${RIDGE_COMMAND}' is not in `ridge --help`")
  endif()
  set(synopsis "${CMAKE_MATCH_1}")
  set(help_option "${RIDGE_COMMAND} --help")
endif()
execute_process(COMMAND ${HELP2MAN} --no-info --no-discard-stderr --section=1 "--name=${synopsis}"
                        "--help-option=${help_option}" --version-option=--version ${RIDGE}
                OUTPUT_VARIABLE page RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "help2man failed on '${help_option}'")
endif()
string(TOUPPER "${title}" upper)
string(REGEX REPLACE "\n\\.TH RIDGE " "\n.TH ${upper} " page "${page}")
string(REPLACE "-" "\\\\-" escaped_title "${title}")
string(REGEX REPLACE "\n\\.SH NAME\n[^\n]*\\\\-" "\n.SH NAME\n${escaped_title} \\\\-" page "${page}")
file(WRITE ${OUT} "${page}")
