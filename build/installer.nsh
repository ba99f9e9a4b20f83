; Included in electron-builder's NSIS installer and uninstaller (nsis.include in
; build/electron-builder.config.ts).

!macro customUnInstall
  ; Perch's toast activator: Electron registers it for the user the first time Perch shows a
  ; notification (app.setToastActivatorCLSID, the id in electron/core/desktop/app-identity.ts),
  ; and nothing else removes it. An update runs the old uninstaller too: the key stays then, for
  ; the new version's toasts.
  ${ifNot} ${isUpdated}
    DeleteRegKey HKCU "Software\Classes\CLSID\{E9B42FAF-8F17-4F56-8855-0D8BB219C01C}"
  ${endIf}
!macroend
