export const entries = () => [{ slug: 'first' }, { slug: 'second' }]
export const load = ({ params }) => ({ slug: params.slug })
