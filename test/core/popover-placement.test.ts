import { describe, expect, it } from 'vitest';
import {
  edgeOfAnchor,
  panelEdge,
  popoverPosition,
  popoverWindowType,
  type Display,
} from '../../electron/core/desktop/popover-placement.js';

const window = { width: 380, height: 560 };
const screen = { x: 0, y: 0, width: 1920, height: 1080 };
const display = (workArea: Display['workArea'], bounds = screen): Display => ({ bounds, workArea });

describe('popoverPosition beside the tray icon', () => {
  it.each([
    {
      name: 'macOS menu bar: below the icon, centred',
      tray: { x: 1000, y: 0, width: 22, height: 22 },
      display: display({ x: 0, y: 25, width: 1440, height: 875 }, { x: 0, y: 0, width: 1440, height: 900 }),
      expected: { x: 821, y: 26 },
    },
    {
      name: 'Windows taskbar at the bottom: above the icon',
      tray: { x: 1500, y: 1050, width: 24, height: 30 },
      display: display({ x: 0, y: 0, width: 1920, height: 1040 }),
      expected: { x: 1322, y: 480 },
    },
    {
      name: 'an icon near the right edge: kept on screen',
      tray: { x: 1900, y: 1050, width: 24, height: 30 },
      display: display({ x: 0, y: 0, width: 1920, height: 1040 }),
      expected: { x: 1540, y: 480 },
    },
    {
      name: 'Windows taskbar on the left: to the right of the icon, as low as it fits',
      tray: { x: 8, y: 1000, width: 32, height: 24 },
      display: display({ x: 48, y: 0, width: 1872, height: 1080 }),
      expected: { x: 48, y: 520 },
    },
    {
      name: 'Windows taskbar on the right: to the left of the icon',
      tray: { x: 1880, y: 300, width: 32, height: 24 },
      display: display({ x: 0, y: 0, width: 1872, height: 1080 }),
      expected: { x: 1492, y: 32 },
    },
    {
      name: 'Windows taskbar at the top: below the icon',
      tray: { x: 1700, y: 4, width: 24, height: 32 },
      display: display({ x: 0, y: 40, width: 1920, height: 1040 }),
      expected: { x: 1522, y: 40 },
    },
    {
      name: 'an auto-hidden taskbar reserves no work area: the nearest screen edge (the bottom) is its side',
      tray: { x: 1700, y: 1050, width: 24, height: 30 },
      display: display(screen),
      expected: { x: 1522, y: 486 },
    },
    {
      name: 'a second screen to the right: kept on that screen',
      tray: { x: 3800, y: 1050, width: 24, height: 30 },
      display: display({ x: 1920, y: 0, width: 1920, height: 1040 }, { x: 1920, y: 0, width: 1920, height: 1080 }),
      expected: { x: 3460, y: 480 },
    },
  ])('$name', ({ tray, display, expected }) => {
    expect(popoverPosition({ tray, cursor: { x: 1, y: 1 }, window, display, platform: 'win32' })).toEqual(expected);
  });
});

describe('popoverPosition without tray bounds', () => {
  const topBar = display({ x: 0, y: 27, width: 1920, height: 1053 });

  it('a click on a Linux tray icon (no bounds): at the pointer, on the panel side, inside the work area', () => {
    const zero = { x: 0, y: 0, width: 0, height: 0 };
    expect(popoverPosition({ tray: zero, cursor: { x: 1850, y: 10 }, window, display: topBar, platform: 'linux' })).toEqual({
      x: 1540,
      y: 27,
    });
    const bottomPanel = display({ x: 0, y: 0, width: 1920, height: 1036 });
    expect(popoverPosition({ tray: null, cursor: { x: 1850, y: 1060 }, window, display: bottomPanel, platform: 'linux' })).toEqual({
      x: 1540,
      y: 476,
    });
  });

  it.each([
    { name: 'a top bar', workArea: { x: 0, y: 27, width: 1920, height: 1053 }, platform: 'linux', expected: { x: 1532, y: 35 } },
    {
      name: 'a bottom panel (KDE, Windows)',
      workArea: { x: 0, y: 0, width: 1920, height: 1032 },
      platform: 'linux',
      expected: { x: 1532, y: 464 },
    },
    { name: 'a left taskbar', workArea: { x: 48, y: 0, width: 1872, height: 1080 }, platform: 'win32', expected: { x: 56, y: 512 } },
    { name: 'a right taskbar', workArea: { x: 0, y: 0, width: 1872, height: 1080 }, platform: 'win32', expected: { x: 1484, y: 512 } },
    {
      name: 'no panel reserving space, Linux (GNOME under Wayland): top right',
      workArea: screen,
      platform: 'linux',
      expected: { x: 1532, y: 8 },
    },
    {
      name: 'no panel reserving space, Windows (auto-hide): bottom right',
      workArea: screen,
      platform: 'win32',
      expected: { x: 1532, y: 512 },
    },
    {
      name: 'no panel reserving space, macOS (hidden menu bar): top right',
      workArea: screen,
      platform: 'darwin',
      expected: { x: 1532, y: 8 },
    },
  ] as const)('with nothing to anchor to, the tray end of $name', ({ workArea, platform, expected }) => {
    expect(popoverPosition({ tray: null, cursor: null, window, display: display(workArea), platform })).toEqual(expected);
  });

  it('a screen smaller than the popover: its top-left corner stays on screen', () => {
    const small = display({ x: 0, y: 0, width: 320, height: 480 }, { x: 0, y: 0, width: 320, height: 480 });
    expect(popoverPosition({ tray: null, cursor: null, window, display: small, platform: 'linux' })).toEqual({ x: 0, y: 0 });
  });
});

describe('the edges', () => {
  it('an anchor beyond the work area is in the panel on that side', () => {
    const workArea = { x: 48, y: 30, width: 1800, height: 1000 };
    expect(edgeOfAnchor({ x: 900, y: 5, width: 20, height: 20 }, display(workArea))).toBe('top');
    expect(edgeOfAnchor({ x: 900, y: 1050, width: 20, height: 20 }, display(workArea))).toBe('bottom');
    expect(edgeOfAnchor({ x: 10, y: 500, width: 20, height: 20 }, display(workArea))).toBe('left');
    expect(edgeOfAnchor({ x: 1880, y: 500, width: 20, height: 20 }, display(workArea))).toBe('right');
  });

  it("a display's widest inset is its panel", () => {
    expect(panelEdge(display({ x: 0, y: 27, width: 1920, height: 1005 }), 'linux')).toBe('bottom');
    expect(panelEdge(display({ x: 0, y: 27, width: 1920, height: 1053 }), 'win32')).toBe('top');
  });
});

describe('popoverWindowType', () => {
  it('is a panel on macOS, a toolbar on Linux (out of the X11 taskbar and Alt-Tab, where skipTaskbar is ignored), none on Windows', () => {
    expect(popoverWindowType('darwin')).toBe('panel');
    expect(popoverWindowType('linux')).toBe('toolbar');
    expect(popoverWindowType('win32')).toBeNull();
  });
});
