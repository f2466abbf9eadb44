import { useLoaderData } from 'react-router'

/**
 * About the markup of Threadwork's home page (~300 elements, ~30 KB of HTML): a header of links
 * and sections of headings, paragraphs and lists, rendered by React from the loader's data.
 */
const SECTIONS = Array.from({ length: 24 }, (_, i) => ({
  id: `section-${i}`,
  title: `Section ${i + 1}: tasks, talked through`,
  text: 'Keep tasks with priority and status, share them with the people who need them, and talk them through in threaded comments with mentions and reactions.',
  points: ['Priority and status', 'Shared by e-mail address', 'Threaded comments', 'Mentions', 'Reactions'],
}))

export function meta() {
  return [{ title: 'A plain page' }, { name: 'description', content: 'The framework floor for pages.' }]
}

export function loader() {
  return { sections: SECTIONS }
}

export default function Page() {
  const { sections } = useLoaderData<typeof loader>()
  return (
    <>
      <header className="flex items-center justify-between border-b px-4 py-3">
        <a href="/page" className="font-semibold">
          A plain page
        </a>
        <nav aria-label="Main">
          {sections.slice(0, 8).map((section) => (
            <a key={section.id} href={`#${section.id}`} className="px-2 text-sm">
              {section.title.split(':')[0]}
            </a>
          ))}
        </nav>
      </header>
      <main className="mx-auto max-w-3xl px-4 py-8">
        {sections.map((section) => (
          <section key={section.id} id={section.id} className="mb-8">
            <h2 className="text-xl font-semibold tracking-tight">{section.title}</h2>
            <p className="mt-2 text-muted-foreground">{section.text}</p>
            <ul className="mt-3 list-disc space-y-1 pl-6">
              {section.points.map((point) => (
                <li key={point} className="text-sm">
                  {point}
                </li>
              ))}
            </ul>
          </section>
        ))}
      </main>
    </>
  )
}
