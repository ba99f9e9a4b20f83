/**
 * Who the app is to the operating system. The installers register this id (electron-builder's
 * `appId`, Windows' AppUserModelID) and notifications must carry the same one, or Windows drops them.
 */
export const appId = 'org.perchapp.perch';
