/** The Name and Description fields of the console's create and edit forms, with the service's limits. */
export function NameFields({ name = '', description = '' }: { name?: string; description?: string | null }) {
  return (
    <>
      <label>
        Name
        <input name="name" required maxLength={255} defaultValue={name} />
      </label>
      <label>
        Description
        <input name="description" maxLength={2000} defaultValue={description ?? ''} />
      </label>
    </>
  );
}
