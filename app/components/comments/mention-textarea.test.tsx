import { renderToString } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import type { Mentionable } from '~/utils/mentions'
import { MentionText } from './mention-text'
import { MentionTextarea } from './mention-textarea'

const grace: Mentionable = { id: 'u1', name: 'Grace Hopper', email: 'grace@example.com', image: null }

describe('<MentionTextarea>', () => {
  test('renders on the server as a plain textarea that posts its value, the picker closed', () => {
    const html = renderToString(
      <form>
        <MentionTextarea
          id="comment"
          name="content"
          rows={3}
          required
          placeholder="Add a comment... Type @ to mention someone"
          users={[grace]}
          value="hi @gra"
          onValueChange={() => {}}
          aria-describedby="hint"
        />
      </form>,
    )
    expect(html).toMatch(/<textarea [^>]*name="content"/)
    for (const attribute of [
      'id="comment"',
      'rows="3"',
      'required=""',
      'placeholder="Add a comment... Type @ to mention someone"',
      'maxLength="5000"',
      'aria-describedby="hint"',
      'aria-autocomplete="list"',
    ]) {
      expect(html).toContain(attribute)
    }
    expect(html).toMatch(/<textarea[^>]*>hi @gra<\/textarea>/)
    // Closed: no list, nothing it points at, and no role a <textarea> may not carry.
    for (const absent of ['listbox', 'Mention someone', 'aria-controls', 'aria-activedescendant', 'role=']) {
      expect(html).not.toContain(absent)
    }
  })

  test('a smaller limit when asked', () => {
    const html = renderToString(
      <MentionTextarea name="content" users={[]} value="" maxLength={100} onValueChange={() => {}} />,
    )
    expect(html).toContain('maxLength="100"')
  })
})

describe('<MentionText>', () => {
  test('highlights the mention and keeps the rest of the text as it was', () => {
    const html = renderToString(
      <p>
        <MentionText content={'hi @Grace Hopper please\n  look <b>'} users={[grace]} />
      </p>,
    )
    expect(html).toBe(
      '<p>hi <span class="rounded bg-primary/10 px-0.5 font-medium text-primary">@Grace Hopper</span>' +
        ' please\n  look &lt;b&gt;</p>',
    )
  })

  test('without anyone to mention, the @ and its first word stand out', () => {
    const html = renderToString(<MentionText content="@Grace Hopper" users={[]} />)
    expect(html).toBe(
      '<span class="rounded bg-primary/10 px-0.5 font-medium text-primary">@Grace</span> Hopper',
    )
  })
})
