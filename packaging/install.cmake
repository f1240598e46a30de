# Install rules, the CMake package, the Debian packages (CPack) and the
# packaging tests. Included at the end of the top-level CMakeLists.txt.
#
#   cmake --install build/dev --prefix /usr/local      everything below
#   packaging/build-deb.sh [BUILD_DIR]                  anamnesis_<v>_amd64.deb
#                                                       + libanamnesis-dev_<v>_amd64.deb
# Components: "runtime" (programs, man pages, completions, desktop files,
# docs: the anamnesis package) and "dev" (headers, static core, CMake package:
# libanamnesis-dev).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The date of this version (UTC seconds since 1970), for the AppStream
# <release>, the Debian changelog and the man pages' footer. Bump it together
# with project(VERSION).
set(AMN_RELEASE_EPOCH 1795478400)  # 2026-11-24
# The Maintainer of the .deb packages and of the Debian changelog's entry,
# "Name <e-mail>" (lintian errors on a missing name or a malformed address).
# Default: whoever packs, as Debian's own tools (dch, dh_make) take it —
# $DEBEMAIL when it is "Name <e-mail>", else "$DEBFULLNAME <$DEBEMAIL>" —
# and without those a placeholder on the reserved .invalid domain (RFC 2606:
# no mail ever reaches it; the project has no public address). Read at the
# first configure; set it for published packages:
#   cmake -DAMN_PACKAGE_MAINTAINER="Jane Doe <jane@example.net>" …
if("$ENV{DEBEMAIL}" MATCHES "<.*@.*>")
  set(_amn_maintainer "$ENV{DEBEMAIL}")
elseif(NOT "$ENV{DEBFULLNAME}" STREQUAL "" AND NOT "$ENV{DEBEMAIL}" STREQUAL "")
  set(_amn_maintainer "$ENV{DEBFULLNAME} <$ENV{DEBEMAIL}>")
else()
  set(_amn_maintainer "The anamnesis developers <no-public-address@anamnesis.invalid>")
endif()
set(AMN_PACKAGE_MAINTAINER "${_amn_maintainer}"
    CACHE STRING "Maintainer field of the .deb packages and the Debian changelog: \"Name <e-mail>\"")
if(NOT AMN_PACKAGE_MAINTAINER MATCHES "^[^<>@]*[^<>@ ] <[^<>@ ]+@[^<>@ ]+\\.[^<>@ ]+>$")
  message(FATAL_ERROR "AMN_PACKAGE_MAINTAINER is \"${AMN_PACKAGE_MAINTAINER}\": it must be "
                      "\"Name <user@host.domain>\" (the .deb Maintainer field)")
endif()
# The project's web pages, for the AppStream metainfo: its homepage and where
# the README's screenshots (docs/screenshots/*.png) are published. Set both
# when publishing the project.
set(AMN_HOMEPAGE_URL "https://anamnesis.example.org/"
    CACHE STRING "Homepage in the AppStream metainfo")
set(AMN_SCREENSHOT_URL "https://anamnesis.example.org/docs/screenshots"
    CACHE STRING "URL of the folder holding docs/screenshots/*.png, for the AppStream metainfo")

set(_amn_saved_epoch "$ENV{SOURCE_DATE_EPOCH}")
set(ENV{SOURCE_DATE_EPOCH} ${AMN_RELEASE_EPOCH})
string(TIMESTAMP AMN_RELEASE_DATE "%Y-%m-%d" UTC)
string(TIMESTAMP AMN_RELEASE_DATE_RFC2822 "%a, %d %b %Y %H:%M:%S +0000" UTC)
set(ENV{SOURCE_DATE_EPOCH} "${_amn_saved_epoch}")

# Directories created by the install are 0755 whatever the umask.
set(CMAKE_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

set(_amn_gen ${PROJECT_BINARY_DIR}/packaging)
file(MAKE_DIRECTORY ${_amn_gen})

# ---------------------------------------------------------------- programs
install(TARGETS amn RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
if(TARGET anamnesis)
  install(TARGETS anamnesis RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
endif()

# ---------------------------------------------------------------- man pages
# Sources in docs/man/*.scd (scdoc(5)), versioned by configure_file, rendered
# and compressed at build time. packaging/check_help_sync.py keeps them in
# step with --help.
find_program(AMN_SCDOC scdoc)
find_program(AMN_GZIP gzip)
set(_amn_man_pages amn)
if(TARGET anamnesis)
  list(APPEND _amn_man_pages anamnesis)
endif()
if(AMN_SCDOC AND AMN_GZIP)
  set(_amn_man_outputs)
  foreach(page IN LISTS _amn_man_pages)
    configure_file(${PROJECT_SOURCE_DIR}/docs/man/${page}.1.scd ${_amn_gen}/man/${page}.1.scd @ONLY)
    add_custom_command(
      OUTPUT ${_amn_gen}/man/${page}.1.gz
      COMMAND ${CMAKE_COMMAND} -E env SOURCE_DATE_EPOCH=${AMN_RELEASE_EPOCH}
              sh -c "'${AMN_SCDOC}' < '${_amn_gen}/man/${page}.1.scd' > '${_amn_gen}/man/${page}.1'"
      COMMAND ${AMN_GZIP} -9nf ${_amn_gen}/man/${page}.1
      DEPENDS ${_amn_gen}/man/${page}.1.scd ${PROJECT_SOURCE_DIR}/docs/man/${page}.1.scd
      COMMENT "Rendering man page ${page}(1)"
      VERBATIM)
    list(APPEND _amn_man_outputs ${_amn_gen}/man/${page}.1.gz)
  endforeach()
  add_custom_target(amn_man_pages ALL DEPENDS ${_amn_man_outputs})
  install(FILES ${_amn_man_outputs} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT runtime)
else()
  message(WARNING "scdoc or gzip not found: man pages are not built or installed "
                  "(apt-get install scdoc; see packaging/debian-packages.txt)")
endif()

# ---------------------------------------------------------------- completions
install(FILES packaging/completions/amn.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME amn COMPONENT runtime)
install(FILES packaging/completions/_amn
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions COMPONENT runtime)
install(FILES packaging/completions/amn.fish
        DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d COMPONENT runtime)

# ---------------------------------------------------------------- desktop integration
if(TARGET anamnesis)
  install(FILES resources/org.anamnesis.Anamnesis.desktop
          DESTINATION ${CMAKE_INSTALL_DATADIR}/applications COMPONENT runtime)
  configure_file(resources/org.anamnesis.anamnesis.metainfo.xml.in
                 ${_amn_gen}/org.anamnesis.anamnesis.metainfo.xml @ONLY)
  install(FILES ${_amn_gen}/org.anamnesis.anamnesis.metainfo.xml
          DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo COMPONENT runtime)
  install(FILES resources/anamnesis-mime.xml
          DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages RENAME anamnesis.xml COMPONENT runtime)
  install(FILES resources/icons/anamnesis.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps COMPONENT runtime)

  # PNG sizes of the hicolor theme, rendered from the SVG at build time.
  set(AMN_ICON_SIZES 16 22 24 32 48 64 128 256)
  add_executable(amn_render_icon packaging/render_icon.cc)
  target_link_libraries(amn_render_icon PRIVATE Qt6::Gui Qt6::Svg)
  set(_amn_icon_outputs)
  foreach(size IN LISTS AMN_ICON_SIZES)
    list(APPEND _amn_icon_outputs ${_amn_gen}/icons/${size}x${size}/apps/anamnesis.png)
  endforeach()
  add_custom_command(
    OUTPUT ${_amn_icon_outputs}
    # (ASAN_OPTIONS: the asan preset builds this tool with LeakSanitizer too.)
    COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0
            $<TARGET_FILE:amn_render_icon> ${PROJECT_SOURCE_DIR}/resources/icons/anamnesis.svg
            ${_amn_gen}/icons ${AMN_ICON_SIZES}
    DEPENDS amn_render_icon ${PROJECT_SOURCE_DIR}/resources/icons/anamnesis.svg
    COMMENT "Rendering hicolor PNG icons"
    VERBATIM)
  add_custom_target(amn_icons ALL DEPENDS ${_amn_icon_outputs})
  install(DIRECTORY ${_amn_gen}/icons/ DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor
          COMPONENT runtime FILES_MATCHING PATTERN "*.png")

  # Compiled translations (.qm). The application loads these when present
  # (an updated catalogue needs no rebuild) and falls back to the same files
  # embedded under :/i18n.
  # (qt_add_translations in widgets/ writes them to its binary directory.)
  file(GLOB _amn_ts RELATIVE ${PROJECT_SOURCE_DIR}/translations ${PROJECT_SOURCE_DIR}/translations/*.ts)
  foreach(ts IN LISTS _amn_ts)
    string(REGEX REPLACE "\\.ts$" ".qm" qm ${ts})
    install(FILES ${PROJECT_BINARY_DIR}/widgets/${qm}
            DESTINATION ${CMAKE_INSTALL_DATADIR}/anamnesis/translations COMPONENT runtime)
  endforeach()
endif()

# ---------------------------------------------------------------- documentation
# share/doc/anamnesis: README, both licences, the machine-readable copyright
# and the Debian changelog (Debian policy for native packages).
configure_file(packaging/changelog.in ${_amn_gen}/changelog @ONLY)
add_custom_command(
  OUTPUT ${_amn_gen}/changelog.gz
  COMMAND ${AMN_GZIP} -9nkf ${_amn_gen}/changelog
  DEPENDS ${_amn_gen}/changelog
  VERBATIM)
add_custom_target(amn_changelog ALL DEPENDS ${_amn_gen}/changelog.gz)
foreach(comp_doc IN ITEMS "runtime;${CMAKE_INSTALL_DOCDIR}"
                          "dev;${CMAKE_INSTALL_DATADIR}/doc/libanamnesis-dev")
  list(GET comp_doc 0 comp)
  list(GET comp_doc 1 docdir)
  install(FILES packaging/copyright ${_amn_gen}/changelog.gz DESTINATION ${docdir} COMPONENT ${comp})
endforeach()
install(FILES README.md LICENSE-MIT LICENSE-APACHE DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT runtime)

# ---------------------------------------------------------------- CMake package
# find_package(anamnesis CONFIG) → anamnesis::core, the static core with its
# public headers. The core's CMakeLists names its include directory for the
# build tree; the installed tree uses include/.
set_target_properties(amn_core PROPERTIES EXPORT_NAME core)
get_target_property(_amn_core_inc amn_core INTERFACE_INCLUDE_DIRECTORIES)
if(NOT _amn_core_inc)
  set(_amn_core_inc "")
endif()
list(REMOVE_ITEM _amn_core_inc ${PROJECT_SOURCE_DIR}/core/include)
set_property(TARGET amn_core PROPERTY INTERFACE_INCLUDE_DIRECTORIES
             $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/core/include>
             $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
             ${_amn_core_inc})
set_property(TARGET amn_core APPEND PROPERTY INTERFACE_COMPILE_FEATURES cxx_std_20)
# The ONNX schema's generated classes (core/CMakeLists.txt) go with the core:
# a static library the core's archive needs at link time.
set_target_properties(amn_onnx_proto PROPERTIES EXPORT_NAME onnx_proto)
install(TARGETS amn_core amn_onnx_proto EXPORT anamnesisTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
# A RelWithDebInfo core is ~100 MB of DWARF: `cmake --install --strip` and the
# .deb (CPACK_STRIP_FILES) keep the symbols and drop the debug sections.
install(CODE "
  if(CMAKE_INSTALL_DO_STRIP)
    execute_process(COMMAND \"${CMAKE_STRIP}\" --strip-debug
                    \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/$<TARGET_FILE_NAME:amn_core>\"
                    RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR \"strip --strip-debug of the core failed\")
    endif()
  endif()" COMPONENT dev)
install(DIRECTORY core/include/anamnesis DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT dev FILES_MATCHING PATTERN "*.hpp")
set(_amn_cmakedir ${CMAKE_INSTALL_LIBDIR}/cmake/anamnesis)
install(EXPORT anamnesisTargets NAMESPACE anamnesis:: DESTINATION ${_amn_cmakedir} COMPONENT dev)
configure_package_config_file(packaging/anamnesisConfig.cmake.in ${_amn_gen}/anamnesisConfig.cmake
                              INSTALL_DESTINATION ${_amn_cmakedir})
write_basic_package_version_file(${_amn_gen}/anamnesisConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${_amn_gen}/anamnesisConfig.cmake ${_amn_gen}/anamnesisConfigVersion.cmake
        DESTINATION ${_amn_cmakedir} COMPONENT dev)

# ---------------------------------------------------------------- Debian packages
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME anamnesis)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The anamnesis developers")
set(CPACK_PACKAGE_CONTACT "${AMN_PACKAGE_MAINTAINER}")
# Each package's Description below starts with its own synopsis line; CPack
# 3.25 prepends CPACK_PACKAGE_DESCRIPTION_SUMMARY unless it is left at its
# default value, so it is.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CMAKE_PROJECT_NAME} built using CMake")
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE-MIT)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME anamnesis)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION science)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
# Qt's own translations (qtbase_*.qm): the file dialog and standard buttons in
# the user's language; the application runs without them.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS "qt6-translations-l10n")
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
"inspector and converter for ML model files
anamnesis parses ML model files (safetensors, GGUF, NumPy .npy/.npz and
PyTorch checkpoints) without running any code from them, tells what they
are and what quantization took from them, and remembers (dequantizes) FP8,
GPTQ, AWQ, bitsandbytes, compressed-tensors and GGUF block types to plain
BF16/F16/F32 safetensors, bit-exact against each scheme's reference library.
It also quantizes to llama-quantize's GGUF file types and to bitsandbytes,
FP8 and compressed-tensors checkpoints.

This package holds the amn command line and the anamnesis Qt 6 desktop
application.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libanamnesis-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libsimdjson-dev (>= 3), libhwy-dev (>= 1.0), zlib1g-dev")
set(CPACK_DEBIAN_DEV_DESCRIPTION
"inspector and converter for ML model files - development files
The anamnesis core is a C++20 library that parses safetensors, GGUF, NumPy
and PyTorch model files, detects quantization schemes and dequantizes or
quantizes tensors bit-exactly against the reference implementations.

This package holds the static library, its public headers and the CMake
package: find_package(anamnesis CONFIG) gives the target anamnesis::core.")

include(CPack)

# ---------------------------------------------------------------- tests
# packaging.help_sync  man pages and completions list every option --help prints
# packaging.install    cmake --install to a staging prefix, run the installed
#                      programs, validate desktop/AppStream/MIME files, build
#                      examples/ against the installed CMake package
# packaging.deb        cpack -G DEB, dpkg-deb -c, lintian; with CI=true as
#                      root also apt-get install, run, apt-get remove
if(AMN_BUILD_TESTS)
  set(_amn_app_args)
  if(TARGET anamnesis)
    set(_amn_app_args --anamnesis $<TARGET_FILE:anamnesis>)
  endif()
  add_test(NAME packaging.help_sync
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/packaging/check_help_sync.py
                   --amn $<TARGET_FILE:amn> ${_amn_app_args} --source-dir ${PROJECT_SOURCE_DIR}
                   --rendered ${_amn_gen}/man --version ${PROJECT_VERSION})
  add_test(NAME packaging.install
           COMMAND ${PROJECT_SOURCE_DIR}/packaging/test_install.sh
                   ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR} ${PROJECT_VERSION})
  add_test(NAME packaging.deb
           COMMAND ${PROJECT_SOURCE_DIR}/packaging/test_deb.sh
                   ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR} ${PROJECT_VERSION})
  set_tests_properties(packaging.help_sync packaging.install packaging.deb PROPERTIES
                       LABELS packaging TIMEOUT 300)
  # Both run the project's install scripts (install_manifest.txt in the build tree).
  set_tests_properties(packaging.install packaging.deb PROPERTIES RESOURCE_LOCK amn_install)
  # Started early by ctest -j (tests/CMakeLists.txt says why): ~50 s in CI.
  set_tests_properties(packaging.deb PROPERTIES COST 50)
endif()
