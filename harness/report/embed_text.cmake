# cmake -DINPUT=file -DOUTPUT=file.cc -DSYMBOL=name -DNAMESPACE=ns -P embed_text.cmake
# Writes a C++ source defining `extern const char SYMBOL[]` with the text of INPUT.
file(READ "${INPUT}" content)
set(delimiter "schema_json")  # C++ allows at most 16 characters
string(FIND "${content}" ")${delimiter}" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter )${delimiter}")
endif()
set(source "// Generated from ${INPUT}; do not edit.\nnamespace ${NAMESPACE} {\nextern const char ${SYMBOL}[];\nconst char ${SYMBOL}[] = R\"${delimiter}(${content})${delimiter}\";\n}\n")
# Rewrite only on change, so that an unchanged schema does not rebuild its users.
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" previous)
  if(previous STREQUAL source)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${source}")
