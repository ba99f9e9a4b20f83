import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { PerchStore } from './lib/perch.svelte.js';
import { applyTheme } from './lib/theme.js';

// Follow the system until the settings arrive, so the first paint already has the right colours.
applyTheme('system');
document.documentElement.lang = navigator.language || 'en';

const target = document.getElementById('app');
if (target === null) throw new Error('The page has no #app element.');

export default mount(App, { target, props: { perch: new PerchStore(window.perch) } });
