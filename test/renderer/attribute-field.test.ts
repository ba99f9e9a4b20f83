import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, test, vi } from 'vitest';
import type { AttributeView } from '$bridge/contract.js';
import AttributeField from '../../renderer/src/components/AttributeField.svelte';
import { attributePattern, attributeProblem } from '../../renderer/src/lib/book-form.svelte.js';

function attribute(type: number, overrides: Partial<AttributeView> = {}): AttributeView {
  return { id: 9, label: 'Field', type, required: false, regex: null, possibleValues: [], resourceIds: [], ...overrides };
}

function renderField(definition: AttributeView, value = '', problem: string | null = null) {
  const onchange = vi.fn<(value: string) => void>();
  render(AttributeField, { props: { attribute: definition, value, problem, onchange } });
  return onchange;
}

describe('AttributeField renders each type', () => {
  test('1: a single line input', async () => {
    const onchange = renderField(attribute(1, { label: 'Cost centre', required: true }), 'CC');
    const input = screen.getByLabelText(/Cost centre/) as HTMLInputElement;
    expect(input.tagName).toBe('INPUT');
    expect(input.type).toBe('text');
    expect(input.value).toBe('CC');
    expect(input.required).toBe(true);
    await fireEvent.input(input, { target: { value: 'CC-1' } });
    expect(onchange).toHaveBeenLastCalledWith('CC-1');
  });

  test('2: a text area', () => {
    renderField(attribute(2, { label: 'Notes' }), 'line one');
    const input = screen.getByLabelText('Notes') as HTMLTextAreaElement;
    expect(input.tagName).toBe('TEXTAREA');
    expect(input.value).toBe('line one');
  });

  test('3: a select of the possible values', async () => {
    const onchange = renderField(attribute(3, { label: 'Catering', possibleValues: ['None', 'Coffee'] }), 'Coffee');
    const select = screen.getByLabelText('Catering') as HTMLSelectElement;
    expect([...select.options].map((option) => option.value)).toEqual(['', 'None', 'Coffee']);
    expect(select.value).toBe('Coffee');
    await fireEvent.change(select, { target: { value: 'None' } });
    expect(onchange).toHaveBeenLastCalledWith('None');
  });

  test('4: a checkbox sending 1 when ticked', async () => {
    const onchange = renderField(attribute(4, { label: 'Projector needed' }));
    const box = screen.getByLabelText('Projector needed') as HTMLInputElement;
    expect(box.type).toBe('checkbox');
    expect(box.checked).toBe(false);
    await fireEvent.click(box);
    expect(onchange).toHaveBeenLastCalledWith('1');
  });

  test('5: a date-time input', () => {
    renderField(attribute(5, { label: 'Guests arrive' }), '2025-11-26T09:45');
    const input = screen.getByLabelText('Guests arrive') as HTMLInputElement;
    expect(input.type).toBe('datetime-local');
    expect(input.value).toBe('2025-11-26T09:45');
  });

  test('a problem marks the field and describes it', () => {
    renderField(attribute(1, { label: 'Badge' }), 'x', 'Badge is not in the expected format.');
    const input = screen.getByLabelText('Badge');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toBe('Badge is not in the expected format.');
  });
});

describe('attribute guidance', () => {
  test.each([
    ['/^B-\\d+$/i', 'b-12', true],
    ['/^B-\\d+$/', 'b-12', false],
    ['^\\d{4}$', '2025', true],
    ['^\\d{4}$', '20256', false],
    // PHP flags JavaScript lacks are dropped rather than failing.
    ['/^a b$/x', 'a b', true],
    ['/^[a-z]+$/D', 'abc', true],
  ])('pattern %s against %s', (regex, value, ok) => {
    expect(attributePattern(regex)?.test(value)).toBe(ok);
  });

  test('an unreadable pattern leaves the check to the server', () => {
    expect(attributePattern('/([a-z/')).toBeNull();
    expect(attributeProblem(attribute(1, { regex: '([a-z' }), 'anything')).toBeNull();
  });

  test('required, lists and checkboxes', () => {
    expect(attributeProblem(attribute(1, { label: 'Code', required: true }), '  ')).toBe('Code is required.');
    expect(attributeProblem(attribute(1, { label: 'Code' }), '')).toBeNull();
    expect(attributeProblem(attribute(1, { label: 'Code', required: true, regex: '/^\\d+$/' }), 'abc')).toBe(
      'Code is not in the expected format.',
    );
    expect(attributeProblem(attribute(3, { label: 'Size', possibleValues: ['S', 'M'] }), 'XL')).toBe(
      'Choose one of the listed values for Size.',
    );
    expect(attributeProblem(attribute(4, { label: 'Rules', required: true }), '')).toBe('Rules must be ticked.');
    expect(attributeProblem(attribute(4, { label: 'Rules', required: true }), '1')).toBeNull();
  });
});
